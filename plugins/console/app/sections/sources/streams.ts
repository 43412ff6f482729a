// <console-sources-streams>: the source's streams (dataset, enabled, sync
// and write modes, cursor, key) and a form per stream that changes them as
// the API allows (PATCH /api/v1/sources/{id}/streams/{stream_id}; the API
// refuses what does not fit, e.g. incremental without a cursor). Fires
// `streams-changed` with the source's streams after a save.
import { LitElement, html, nothing } from 'lit';
import { format } from '../../i18n.ts';
import type { SectionContext } from '../contract.ts';
import '../../ui/row-button.ts';
import '../../ui/status-badge.ts';
import '../../ui/table.ts';
import type { Column } from '../../ui/table.ts';
import { sourcesStyles } from './styles.ts';
import { SOURCES_STRINGS } from './strings.ts';
import { columnsOf, statusLabel, streamLabel, type Source, type Stream } from './types.ts';

const WRITE_MODES = ['overwrite', 'append', 'append_dedup'] as const;

export class SourcesStreams extends LitElement {
  static properties = {
    context: { attribute: false }, source: { attribute: false }, streams: { attribute: false }, editing: { state: true }, busy: { state: true },
  };
  declare context: SectionContext;
  declare source: Source;
  declare streams: Stream[];
  declare editing: string | null;
  declare busy: boolean;
  static styles = sourcesStyles;

  constructor() {
    super();
    this.streams = [];
    this.editing = null;
    this.busy = false;
  }

  private get t() { return SOURCES_STRINGS[this.context.locale]; }

  protected willUpdate(changed: Map<PropertyKey, unknown>): void {
    if (this.editing && !this.streams.some((s) => s.id === this.editing)) this.editing = null;
    const before = changed.get('source') as Source | undefined;
    if (before && before.id !== this.source.id) this.editing = null;
  }

  private async save(event: Event, stream: Stream): Promise<void> {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    const cursor = String(data.get('cursor_field') ?? '');
    const key = String(data.get('primary_key') ?? '').split(',').map((k) => k.trim()).filter(Boolean);
    const patch = {
      enabled: data.get('enabled') === 'on',
      sync_mode: String(data.get('sync_mode')),
      write_mode: String(data.get('write_mode')),
      cursor_field: cursor || null,
      primary_key: key,
    };
    this.busy = true;
    try {
      const saved = await this.context.api.patch<Stream>(`/api/v1/sources/${this.source.id}/streams/${stream.id}`, patch);
      this.editing = null;
      this.context.announce(format(this.t.streamSaved, { name: streamLabel(saved) }));
      const streams = this.streams.map((s) => (s.id === saved.id ? saved : s));
      this.dispatchEvent(new CustomEvent('streams-changed', { detail: { streams }, bubbles: true, composed: true }));
    } catch { /* shown by the shell */ } finally {
      this.busy = false;
    }
  }

  private renderEditor(stream: Stream) {
    const t = this.t;
    const label = streamLabel(stream);
    const columns = columnsOf(stream.schema).map((c) => c.name);
    return html`<form aria-labelledby="stream-editor-heading" @submit=${(e: Event) => void this.save(e, stream)}>
      <h4 id="stream-editor-heading">${format(t.settingsOf, { name: label })}</h4>
      <label class="check"><input type="checkbox" name="enabled" .checked=${stream.enabled}>${t.enabled}</label>
      <div class="row">
        <div class="field"><label for="sync-mode">${t.syncMode}</label>
          <select id="sync-mode" name="sync_mode">${stream.supported_sync_modes.map((mode) => html`<option value=${mode} ?selected=${mode === stream.sync_mode}>${statusLabel(t, mode)}</option>`)}</select></div>
        <div class="field"><label for="write-mode">${t.writeMode}</label>
          <select id="write-mode" name="write_mode">${WRITE_MODES.map((mode) => html`<option value=${mode} ?selected=${mode === stream.write_mode}>${statusLabel(t, mode)}</option>`)}</select></div>
        <div class="field"><label for="cursor-field">${t.cursor}</label>
          <select id="cursor-field" name="cursor_field"><option value="" ?selected=${!stream.cursor_field}>${t.none}</option>
            ${columns.map((c) => html`<option value=${c} ?selected=${c === stream.cursor_field}>${c}</option>`)}</select></div>
        <div class="field"><label for="primary-key">${t.primaryKey}</label>
          <input id="primary-key" name="primary_key" aria-describedby="primary-key-hint" .value=${stream.primary_key.join(', ')}>
          <p class="hint" id="primary-key-hint">${t.primaryKeyHint}</p></div>
      </div>
      <div class="actions">
        <button type="submit" class="primary" ?disabled=${this.busy}>${format(t.saveStream, { name: label })}</button>
        <button type="button" @click=${() => { this.editing = null; }}>${t.cancel}</button>
      </div>
    </form>`;
  }

  render() {
    const t = this.t;
    const columns: Column<Stream>[] = [
      { label: t.stream, cell: (s) => html`<console-row-button variant="link" label=${format(t.settingsOf, { name: streamLabel(s) })}
        @click=${() => { this.editing = s.id; }}>${streamLabel(s)}</console-row-button>` },
      { label: t.enabled, cell: (s) => html`<console-status tone=${s.enabled ? 'ok' : 'neutral'}>${s.enabled ? t.enabled : '—'}</console-status>` },
      { label: t.syncMode, cell: (s) => statusLabel(t, s.sync_mode) },
      { label: t.writeMode, cell: (s) => statusLabel(t, s.write_mode) },
      { label: t.cursor, cell: (s) => s.cursor_field ?? '—' },
      { label: t.primaryKey, cell: (s) => s.primary_key.join(', ') || '—' },
      { label: t.destination, cell: (s) => s.destination },
    ];
    const editing = this.streams.find((s) => s.id === this.editing);
    return html`<section class="panel" aria-labelledby="streams-heading">
      <h3 id="streams-heading">${t.streams}</h3>
      <console-table hide-caption caption=${t.streams} .columns=${columns} .rows=${this.streams} empty=${t.noStreams}></console-table>
      ${editing ? this.renderEditor(editing) : nothing}
    </section>`;
  }
}
if (!customElements.get('console-sources-streams')) customElements.define('console-sources-streams', SourcesStreams);
