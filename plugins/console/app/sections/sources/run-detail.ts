// <console-sources-run>: one sync run's streams with their row counts
// (GET /api/v1/sources/sync-runs/{id}/streams) and its log lines
// (GET /api/v1/sources/{id}/runs/{run_id}/logs), read again when the run's
// status changes. Fires `run-closed`.
import { LitElement, html } from 'lit';
import { format } from '../../i18n.ts';
import type { SectionContext } from '../contract.ts';
import '../../ui/status-badge.ts';
import '../../ui/table.ts';
import type { Column } from '../../ui/table.ts';
import { sourcesStyles } from './styles.ts';
import { SOURCES_STRINGS } from './strings.ts';
import { RUN_TONES, statusLabel, streamLabel, when, type Run, type RunStream, type Source } from './types.ts';

interface LogLine { id: number; at: string; level: string; message: string }

export class SourcesRun extends LitElement {
  static properties = {
    context: { attribute: false }, source: { attribute: false }, run: { attribute: false }, streams: { state: true }, lines: { state: true },
  };
  declare context: SectionContext;
  declare source: Source;
  declare run: Run;
  declare streams: RunStream[] | null;
  declare lines: LogLine[] | null;
  static styles = sourcesStyles;

  constructor() {
    super();
    this.streams = null;
    this.lines = null;
  }

  private get t() { return SOURCES_STRINGS[this.context.locale]; }

  protected willUpdate(changed: Map<PropertyKey, unknown>): void {
    const before = changed.get('run') as Run | undefined;
    if (changed.has('run') && (!before || before.id !== this.run.id || before.status !== this.run.status)) void this.load(this.run);
  }

  private async load(run: Run): Promise<void> {
    const quiet = { quiet: true } as const;
    const [streams, logs] = await Promise.all([
      this.context.api.get<{ items: RunStream[] }>(`/api/v1/sources/sync-runs/${run.id}/streams`, quiet).catch(() => null),
      this.context.api.get<{ items: LogLine[] }>(`/api/v1/sources/${this.source.id}/runs/${run.id}/logs`, { query: { limit: 500 }, ...quiet }).catch(() => null),
    ]);
    if (run.id !== this.run.id) return;
    this.streams = streams?.items ?? [];
    this.lines = logs?.items ?? [];
  }

  render() {
    const t = this.t;
    const locale = this.context.locale;
    const title = format(t.runOf, { time: when(this.run.created_at, locale) });
    const columns: Column<RunStream>[] = [
      { label: t.stream, cell: (s) => streamLabel({ name: s.stream_name, namespace: s.namespace }) },
      { label: t.status, cell: (s) => html`<console-status tone=${RUN_TONES[s.status]}>${statusLabel(t, s.status)}</console-status>` },
      { label: t.rowsRead, cell: (s) => s.rows_read, numeric: true },
      { label: t.rowsAdded, cell: (s) => s.rows_added, numeric: true },
      { label: t.rowsRemoved, cell: (s) => s.rows_removed, numeric: true },
      { label: t.destination, cell: (s) => s.destination },
      { label: t.error, cell: (s) => s.error ?? '' },
    ];
    return html`<section aria-labelledby="run-heading">
      <h4 id="run-heading">${title}</h4>
      <p><console-status tone=${RUN_TONES[this.run.status]}>${statusLabel(t, this.run.status)}</console-status></p>
      ${this.streams ? html`<console-table caption=${t.runStreams} .columns=${columns} .rows=${this.streams} empty=${t.noStreams}></console-table>` : html`<p>${t.loading}</p>`}
      <h4>${t.logs}</h4>
      ${this.lines && this.lines.length === 0 ? html`<p class="muted">${t.noLogs}</p>` : html`<ol class="log" aria-label=${t.logs}>${(this.lines ?? []).map((line) =>
        html`<li>${when(line.at, locale)} ${line.level.toUpperCase()} ${line.message}</li>`)}</ol>`}
      <div class="actions"><button type="button" @click=${() => this.dispatchEvent(new CustomEvent('run-closed'))}>${format(t.close, { name: title })}</button></div>
    </section>`;
  }
}
if (!customElements.get('console-sources-run')) customElements.define('console-sources-run', SourcesRun);
