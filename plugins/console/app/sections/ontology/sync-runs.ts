// <console-ontology-sync-runs>: a backing dataset's sync history (GET
// /api/v1/backing-datasets/{id}/sync-history, newest first): each run's
// status, why it replayed (or that it was skipped), rows synced, snapshot
// and fingerprints; a run opened shows its bulk jobs' counts, its error and
// its log (GET …/sync-history/{run_id} and …/logs).
import { html, nothing } from 'lit';
import { format } from '../../i18n.ts';
import { scrollRegion } from '../../ui/scroll-region.ts';
import { TenantSection } from '../../ui/tenant-section.ts';
import '../../ui/row-button.ts';
import '../../ui/status-badge.ts';
import '../../ui/table.ts';
import type { Tone } from '../../ui/status-badge.ts';
import type { Column } from '../../ui/table.ts';
import { ontologyStyles, shortFingerprint, when } from './common.ts';
import { ONTOLOGY_STRINGS, type OntologyStrings } from './strings.ts';
import type { BackingDataset, List, SyncRun } from './types.ts';

const RUN_TONES: Record<string, Tone> = { succeeded: 'ok', skipped: 'neutral', failed: 'error', queued: 'warn', running: 'warn' };
type Bulk = NonNullable<SyncRun['bulk_jobs']>[number];

export class OntologySyncRuns extends TenantSection<OntologyStrings> {
  static properties = { backing: { attribute: false }, runs: { state: true }, run: { state: true }, logs: { state: true } };
  declare backing: BackingDataset;
  declare runs: SyncRun[] | null;
  declare run: SyncRun | null;
  declare logs: { at: string; level: string; message: string }[];
  static styles = ontologyStyles;
  protected strings = ONTOLOGY_STRINGS;

  constructor() {
    super();
    this.runs = null;
    this.run = null;
    this.logs = [];
  }

  protected contextChanged(): void {
    this.run = null;
    void this.load();
  }

  private get base(): string { return `/api/v1/backing-datasets/${this.backing.id}/sync-history`; }

  /** Reads the history again (and the open run). */
  async load(): Promise<void> {
    const api = this.context?.api;
    if (!api) return;
    const [runs] = await Promise.all([
      api.get<List<SyncRun>>(this.base, { query: { limit: 50 } }).then((r) => r.items, () => null),
      this.run ? this.open(this.run.id, false) : null,
    ]);
    this.runs = runs;
  }

  private async open(id: string, focus = true): Promise<void> {
    const api = this.context!.api;
    const [run, logs] = await Promise.all([
      api.get<SyncRun>(`${this.base}/${id}`).catch(() => null),
      api.get<{ items: { at: string; level: string; message: string }[] }>(`${this.base}/${id}/logs`).then((r) => r.items, () => []),
    ]);
    if (!run) return;
    this.run = run;
    this.logs = logs;
    if (focus) {
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('#run-heading')?.focus();
    }
  }

  private replay(run: SyncRun): string {
    const t = this.t;
    if (!run.replay_reason) return run.status === 'skipped' ? t.notReplayed : t.none;
    return t.replayReasons[run.replay_reason] ?? run.replay_reason;
  }

  private fingerprint(value: string | null) {
    return value ? html`<span class="mono" title=${value}>${shortFingerprint(value)}</span>` : this.t.none;
  }

  private renderRun(run: SyncRun) {
    const t = this.t;
    const locale = this.context?.locale ?? 'en';
    const columns: Column<Bulk>[] = [
      { label: t.operation, cell: (j) => j.operation },
      { label: t.submitted, cell: (j) => j.submitted_count, numeric: true },
      { label: t.completed, cell: (j) => j.completed_count, numeric: true },
    ];
    return html`<div class="panel">
      <div class="head">
        <h5 id="run-heading" tabindex="-1">${format(t.runOf, { id: run.id })}</h5>
        <button type="button" @click=${() => { this.run = null; }}>${t.close}</button>
      </div>
      <dl>
        <dt>${t.status}</dt><dd><console-status tone=${RUN_TONES[run.status] ?? 'neutral'}>${t.statuses[run.status] ?? run.status}</console-status></dd>
        <dt>${t.replay}</dt><dd>${this.replay(run)}</dd>
        <dt>${t.rowsSynced}</dt><dd>${run.rows_synced}</dd>
        <dt>${t.typeVersion}</dt><dd>${run.entity_type_version}</dd>
        <dt>${t.snapshot}</dt><dd class="mono">${run.snapshot_id_exact ?? t.none}</dd>
        <dt>${t.attemptedFingerprint}</dt><dd class="mono">${run.attempted_sync_spec_fingerprint ?? t.none}</dd>
        <dt>${t.appliedFingerprint}</dt><dd class="mono">${run.applied_sync_spec_fingerprint ?? t.none}</dd>
        <dt>${t.started}</dt><dd>${when(run.started_at, locale)}</dd>
        <dt>${t.finished}</dt><dd>${when(run.finished_at, locale)}</dd>
        ${run.error ? html`<dt>${t.error}</dt><dd class="error">${run.error}</dd>` : nothing}
      </dl>
      ${scrollRegion(t.bulkJobs, html`<console-table .caption=${t.bulkJobs} .empty=${t.noBulkJobs} .columns=${columns} .rows=${run.bulk_jobs ?? []}></console-table>`)}
      ${this.logs.length ? html`<pre tabindex="0" role="region" aria-label=${t.logs}>${this.logs.map((l) => `${when(l.at, locale)} ${l.level} ${l.message}`).join('\n')}</pre>` : nothing}
    </div>`;
  }

  render() {
    const t = this.t;
    if (!this.runs) return nothing;
    const locale = this.context?.locale ?? 'en';
    const columns: Column<SyncRun>[] = [
      { label: t.run, cell: (r) => html`<console-row-button variant="link" label=${format(t.openRun, { id: r.id })} @click=${() => this.open(r.id)}>${r.id.slice(0, 8)}</console-row-button>` },
      { label: t.status, cell: (r) => html`<console-status tone=${RUN_TONES[r.status] ?? 'neutral'}>${t.statuses[r.status] ?? r.status}</console-status>` },
      { label: t.replay, cell: (r) => this.replay(r) },
      { label: t.rowsSynced, cell: (r) => r.rows_synced, numeric: true },
      { label: t.snapshot, cell: (r) => html`<span class="mono">${r.snapshot_id_exact ?? t.none}</span>` },
      { label: t.attemptedFingerprint, cell: (r) => this.fingerprint(r.attempted_sync_spec_fingerprint) },
      { label: t.started, cell: (r) => when(r.created_at, locale) },
      { label: t.finished, cell: (r) => when(r.finished_at, locale) },
    ];
    return html`${scrollRegion(format(t.syncHistoryOf, { name: this.backing.name }), html`<console-table .caption=${format(t.syncHistoryOf, { name: this.backing.name })} .empty=${t.noRuns} .columns=${columns} .rows=${this.runs}></console-table>`)}
      ${this.run ? this.renderRun(this.run) : nothing}`;
  }
}

if (!customElements.get('console-ontology-sync-runs')) customElements.define('console-ontology-sync-runs', OntologySyncRuns);
