// <console-sources-discover>: a discovery of the source's streams (POST
// /api/v1/sources/discover, its status read every 2 s until it ends), the
// streams found with their columns, each with an "Enable" checkbox, and Apply:
// the snapshot applied as refresh-schema, then each found stream enabled or
// not as chosen (POST .../streams/bulk). With `offer` (Sync now found no
// enabled stream) it starts a discovery by itself and says why. Fires
// `streams-changed` with the source's streams after applying.
import { LitElement, html, nothing } from 'lit';
import { format } from '../../i18n.ts';
import type { SectionContext } from '../contract.ts';
import { sourcesStyles } from './styles.ts';
import { SOURCES_STRINGS } from './strings.ts';
import { columnsOf, POLL_MS, streamLabel, type Discovery, type Source, type Stream } from './types.ts';

const done = (discovery: Discovery) => discovery.status === 'succeeded' || discovery.status === 'failed';

export class SourcesDiscover extends LitElement {
  static properties = {
    context: { attribute: false }, source: { attribute: false }, streams: { attribute: false }, offer: { type: Boolean },
    discovery: { state: true }, chosen: { state: true }, busy: { state: true },
  };
  declare context: SectionContext;
  declare source: Source;
  declare streams: Stream[];
  declare offer: boolean;
  declare discovery: Discovery | null;
  declare chosen: Set<string>;
  declare busy: boolean;
  private timer: ReturnType<typeof setTimeout> | undefined;
  static styles = sourcesStyles;

  constructor() {
    super();
    this.streams = [];
    this.offer = false;
    this.discovery = null;
    this.chosen = new Set();
    this.busy = false;
  }

  private get t() { return SOURCES_STRINGS[this.context.locale]; }

  disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.timer);
  }

  protected willUpdate(changed: Map<PropertyKey, unknown>): void {
    const before = changed.get('source') as Source | undefined;
    if (before && before.id !== this.source.id) {
      clearTimeout(this.timer);
      this.discovery = null;
    }
    if (changed.has('offer') && this.offer) {
      if (this.discovery) this.context.announce(this.t.noEnabledStreams);
      else void this.start(this.t.noEnabledStreams);
    }
  }

  /** Starts a discovery and says `message` (what is going on). */
  async start(message = this.t.discovering): Promise<void> {
    const sourceId = this.source.id;
    this.busy = true;
    try {
      const started = await this.context.api.post<{ workflow_id: string }>('/api/v1/sources/discover', { source_id: sourceId });
      if (sourceId !== this.source.id) return;
      this.discovery = { workflow_id: started.workflow_id, status: 'queued', streams: null, error: null };
      this.context.announce(message);
      this.timer = setTimeout(() => void this.poll(sourceId), POLL_MS);
    } catch { /* shown by the shell */ } finally {
      this.busy = false;
    }
  }

  private async poll(sourceId: string): Promise<void> {
    const current = this.discovery;
    if (!current || sourceId !== this.source.id || !this.isConnected) return;
    const read = await this.context.api.get<Discovery>(`/api/v1/sources/discover/status/${current.workflow_id}`, { quiet: true }).catch(() => null);
    if (sourceId !== this.source.id) return;
    if (!read || !done(read)) {
      this.timer = setTimeout(() => void this.poll(sourceId), POLL_MS);
      return;
    }
    const known = new Map(this.streams.map((s) => [streamLabel(s), s.enabled]));
    this.chosen = new Set((read.streams ?? []).map((s) => streamLabel(s)).filter((label) => known.get(label) === true));
    this.discovery = read;
    const t = this.t;
    this.context.announce(read.status === 'succeeded' ? format(t.discovered, { count: read.streams?.length ?? 0 }) : format(t.discoveryFailed, { error: read.error ?? '' }));
  }

  private toggle(label: string, on: boolean): void {
    const chosen = new Set(this.chosen);
    if (on) chosen.add(label);
    else chosen.delete(label);
    this.chosen = chosen;
  }

  private async apply(): Promise<void> {
    const found = this.discovery?.streams;
    if (!found) return;
    const { id } = this.source;
    this.busy = true;
    try {
      const refreshed = await this.context.api.post<{ items: Stream[] }>(`/api/v1/sources/${id}/streams/refresh-schema`, { streams: found });
      const changes = refreshed.items
        .filter((stream) => stream.enabled !== this.chosen.has(streamLabel(stream)))
        .map((stream) => ({ stream_id: stream.id, enabled: this.chosen.has(streamLabel(stream)) }));
      const streams = changes.length ? (await this.context.api.post<{ items: Stream[] }>(`/api/v1/sources/${id}/streams/bulk`, { streams: changes })).items : refreshed.items;
      this.discovery = null;
      this.context.announce(format(this.t.applied, { enabled: streams.filter((s) => s.enabled).length }));
      this.dispatchEvent(new CustomEvent('streams-changed', { detail: { streams }, bubbles: true, composed: true }));
    } catch { /* shown by the shell */ } finally {
      this.busy = false;
    }
  }

  private renderFound(discovery: Discovery) {
    const t = this.t;
    if (!done(discovery)) return html`<p>${t.discovering}</p>`;
    if (discovery.status === 'failed') return html`<p class="error-text">${format(t.discoveryFailed, { error: discovery.error ?? '' })}</p>`;
    const found = discovery.streams ?? [];
    return html`<p>${format(t.discovered, { count: found.length })}</p>
      <ul class="found">${found.map((stream) => {
        const label = streamLabel(stream);
        const id = `enable-${label.replace(/[^A-Za-z0-9_-]/g, '_')}`;
        return html`<li>
          <label class="check" for=${id}><input id=${id} type="checkbox" .checked=${this.chosen.has(label)}
            @change=${(e: Event) => this.toggle(label, (e.target as HTMLInputElement).checked)}>${format(t.enableStream, { name: label })}</label>
          <p class="cols"><span>${t.columns}:</span> ${columnsOf(stream.schema).map((c) => `${c.name} (${c.type})`).join(', ')}</p>
        </li>`;
      })}</ul>
      ${found.length ? html`<div class="actions"><button type="button" class="primary" ?disabled=${this.busy} @click=${() => void this.apply()}>${t.apply}</button></div>` : nothing}`;
  }

  render() {
    const t = this.t;
    const discovery = this.discovery;
    return html`<section class="panel" aria-labelledby="discovery-heading">
      <h3 id="discovery-heading">${t.discovery}</h3>
      ${this.offer ? html`<p class="notice">${t.noEnabledStreams}</p>` : html`<p>${t.discoverIntro}</p>`}
      ${discovery ? this.renderFound(discovery) : nothing}
      ${!discovery || done(discovery) ? html`<div class="actions"><button type="button" ?disabled=${this.busy} @click=${() => void this.start()}>${t.discover}</button></div>` : nothing}
    </section>`;
  }
}
if (!customElements.get('console-sources-discover')) customElements.define('console-sources-discover', SourcesDiscover);
