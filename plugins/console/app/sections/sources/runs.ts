// <console-sources-runs>: Sync now and the source's runs (GET
// .../sync-history): status, trigger, rows, times, error. Sync now with no
// enabled stream starts nothing: it fires `offer-streams` so the discovery
// offers streams to enable (the API would refuse it: 409
// NO_ENABLED_STREAMS, handled the same). While the latest run is queued or
// running it is read again every 2 s (GET .../sync/status) and its end is
// announced (`run-ended` fired). A run opens its streams' rows
// (GET /sources/sync-runs/{id}/streams) and its log (GET .../runs/{id}/logs).
import { LitElement, html, nothing } from 'lit';
import { ApiError } from '../../client.ts';
import { format } from '../../i18n.ts';
import type { SectionContext } from '../contract.ts';
import '../../ui/row-button.ts';
import '../../ui/status-badge.ts';
import '../../ui/table.ts';
import type { Column } from '../../ui/table.ts';
import './run-detail.ts';
import { sourcesStyles } from './styles.ts';
import { SOURCES_STRINGS } from './strings.ts';
import { isLive, POLL_MS, RUN_TONES, statusLabel, when, type Run, type Source, type Stream, type SyncStatus } from './types.ts';

export class SourcesRuns extends LitElement {
  static properties = {
    context: { attribute: false }, source: { attribute: false }, streams: { attribute: false },
    runs: { state: true }, selected: { state: true }, busy: { state: true }, error: { state: true },
  };
  declare context: SectionContext;
  declare source: Source;
  declare streams: Stream[];
  declare runs: Run[] | null;
  declare selected: string | null;
  declare busy: boolean;
  declare error: string;
  private timer: ReturnType<typeof setTimeout> | undefined;
  static styles = sourcesStyles;

  constructor() {
    super();
    this.streams = [];
    this.runs = null;
    this.selected = null;
    this.busy = false;
    this.error = '';
  }

  private get t() { return SOURCES_STRINGS[this.context.locale]; }

  disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.timer);
  }

  connectedCallback(): void {
    super.connectedCallback();
    if (this.source && this.runs) void this.load(this.source.id);
  }

  protected willUpdate(changed: Map<PropertyKey, unknown>): void {
    const before = changed.get('source') as Source | undefined;
    if (changed.has('source') && (!before || before.id !== this.source.id)) {
      clearTimeout(this.timer);
      this.runs = null;
      this.selected = null;
      this.error = '';
      void this.load(this.source.id);
    }
  }

  private async load(sourceId: string): Promise<void> {
    const listed = await this.context.api.get<{ items: Run[] }>(`/api/v1/sources/${sourceId}/sync-history`, { query: { limit: 20 } }).catch(() => null);
    if (sourceId !== this.source.id) return;
    this.runs = listed?.items ?? [];
    clearTimeout(this.timer);
    if (this.runs[0] && isLive(this.runs[0].status)) this.timer = setTimeout(() => void this.poll(sourceId), POLL_MS);
  }

  /** The latest run again; its end is announced and the history reloaded. */
  private async poll(sourceId: string): Promise<void> {
    if (sourceId !== this.source.id || !this.isConnected) return;
    const status = await this.context.api.get<SyncStatus>(`/api/v1/sources/${sourceId}/sync/status`, { quiet: true }).catch(() => null);
    if (sourceId !== this.source.id) return;
    const run = status?.run;
    if (!run || isLive(run.status)) {
      if (run) this.runs = (this.runs ?? []).map((r) => (r.id === run.id ? run : r));
      this.timer = setTimeout(() => void this.poll(sourceId), POLL_MS);
      return;
    }
    const t = this.t;
    this.context.announce(format(t.runEnded, { name: this.source.name, status: statusLabel(t, run.status), rows: run.rows_read }));
    this.dispatchEvent(new CustomEvent('run-ended', { detail: { run }, bubbles: true, composed: true }));
    await this.load(sourceId);
  }

  /** The discovery says why and offers streams to enable. */
  private offerStreams(): void {
    this.dispatchEvent(new CustomEvent('offer-streams', { bubbles: true, composed: true }));
  }

  private async syncNow(): Promise<void> {
    this.error = '';
    if (!this.streams.some((s) => s.enabled)) {
      this.offerStreams();
      return;
    }
    const source = this.source;
    this.busy = true;
    try {
      const run = await this.context.api.post<Run>(`/api/v1/sources/${source.id}/sync`, undefined, { quiet: true });
      this.context.announce(format(this.t.syncStarted, { name: source.name }));
      this.runs = [run, ...(this.runs ?? []).filter((r) => r.id !== run.id)];
      clearTimeout(this.timer);
      this.timer = setTimeout(() => void this.poll(source.id), POLL_MS);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'NO_ENABLED_STREAMS') this.offerStreams();
      else this.error = err instanceof Error ? err.message : String(err);
    } finally {
      this.busy = false;
    }
  }

  render() {
    const t = this.t;
    const locale = this.context.locale;
    const live = this.runs?.[0] && isLive(this.runs[0].status);
    const columns: Column<Run>[] = [
      { label: t.started, cell: (r) => html`<console-row-button variant="link" label=${format(t.showRun, { time: when(r.created_at, locale) })}
        @click=${() => { this.selected = r.id; }}>${when(r.created_at, locale)}</console-row-button>` },
      { label: t.status, cell: (r) => html`<console-status tone=${RUN_TONES[r.status]}>${statusLabel(t, r.status)}</console-status>` },
      { label: t.trigger, cell: (r) => statusLabel(t, r.trigger) },
      { label: t.rowsRead, cell: (r) => r.rows_read, numeric: true },
      { label: t.rowsAdded, cell: (r) => r.rows_added, numeric: true },
      { label: t.finished, cell: (r) => when(r.finished_at, locale) },
      { label: t.error, cell: (r) => r.error ?? '' },
    ];
    const selected = this.runs?.find((r) => r.id === this.selected);
    return html`<section class="panel" aria-labelledby="runs-heading">
      <h3 id="runs-heading">${t.runs}</h3>
      <div class="actions"><button type="button" class="primary" ?disabled=${this.busy || live} @click=${() => void this.syncNow()}>${t.syncNow}</button></div>
      ${this.error ? html`<p role="alert" class="error-text">${this.error}</p>` : nothing}
      ${this.runs ? html`<console-table hide-caption caption=${t.runs} .columns=${columns} .rows=${this.runs} empty=${t.noRuns}></console-table>` : html`<p>${t.loading}</p>`}
      ${selected ? html`<console-sources-run .context=${this.context} .source=${this.source} .run=${selected}
        @run-closed=${() => { this.selected = null; }}></console-sources-run>` : nothing}
    </section>`;
  }
}
if (!customElements.get('console-sources-runs')) customElements.define('console-sources-runs', SourcesRuns);
