// <console-ontology-backing>: one backing dataset of an entity type: the
// dataset that backs it, its mapping and key columns, its health (GET
// /api/v1/backing-datasets/{id}/health), **Sync now** and a forced replay
// for editors (POST …/{id}/sync?force=, then the run followed until it
// ends), and its sync history (sync-runs.ts).
import { html, nothing } from 'lit';
import { format } from '../../i18n.ts';
import { scrollRegion } from '../../ui/scroll-region.ts';
import { TenantSection } from '../../ui/tenant-section.ts';
import '../../ui/status-badge.ts';
import '../../ui/table.ts';
import type { Tone } from '../../ui/status-badge.ts';
import type { Column } from '../../ui/table.ts';
import { canEdit, ontologyStyles } from './common.ts';
import './sync-runs.ts';
import type { OntologySyncRuns } from './sync-runs.ts';
import { ONTOLOGY_STRINGS, type OntologyStrings } from './strings.ts';
import type { BackingDataset, BackingHealth, SyncRun } from './types.ts';

const HEALTH_TONES: Record<string, Tone> = { healthy: 'ok', pending: 'warn', never_synced: 'neutral', degraded: 'error', failing: 'error' };
/** Reads of a triggered run while its worker takes it and runs it. */
const RUN_READS = 120;
const RUN_READ_INTERVAL_MS = 500;

export class OntologyBacking extends TenantSection<OntologyStrings> {
  static properties = { backing: { attribute: false }, health: { state: true }, busy: { state: true } };
  declare backing: BackingDataset;
  declare health: BackingHealth | null;
  declare busy: boolean;
  static styles = ontologyStyles;
  protected strings = ONTOLOGY_STRINGS;

  constructor() {
    super();
    this.health = null;
    this.busy = false;
  }

  protected contextChanged(): void {
    void this.loadHealth();
  }

  private get base(): string { return `/api/v1/backing-datasets/${this.backing.id}`; }

  private async loadHealth(): Promise<void> {
    this.health = await this.context?.api.get<BackingHealth>(`${this.base}/health`).catch(() => null) ?? null;
  }

  private async sync(force: boolean): Promise<void> {
    const api = this.context!.api;
    const name = this.backing.name;
    this.busy = true;
    try {
      const queued = await api.post<SyncRun>(`${this.base}/sync`, undefined, { query: { force: force || undefined } }).catch(() => null);
      if (!queued) return;
      this.context!.announce(format(this.t.syncQueued, { name }));
      const runs = this.renderRoot.querySelector<OntologySyncRuns>('console-ontology-sync-runs');
      await runs?.load();
      let run: SyncRun | null = queued;
      for (let i = 0; i < RUN_READS && run && !run.is_terminal; i++) {
        await new Promise((resolve) => setTimeout(resolve, RUN_READ_INTERVAL_MS));
        run = await api.get<SyncRun>(`${this.base}/sync-history/${queued.id}`).catch(() => null);
      }
      await Promise.all([runs?.load(), this.loadHealth()]);
      if (run?.is_terminal) this.context!.announce(format(this.t.syncEnded, { name, status: this.t.statuses[run.status] ?? run.status, rows: run.rows_synced }));
    } finally {
      this.busy = false;
    }
  }

  private renderHealth() {
    const t = this.t;
    const health = this.health;
    if (!health) return nothing;
    return html`<dt>${t.health}</dt>
      <dd><console-status tone=${HEALTH_TONES[health.status] ?? 'neutral'}>${t.healthLabels[health.status] ?? health.status}</console-status>
        ${health.reasons.length ? format(t.pendingBecause, { reasons: health.reasons.map((r) => t.replayReasons[r] ?? r).join(', ') }) : nothing}
        ${health.problem ? html`<span class="error">${health.problem}</span>` : nothing}</dd>
      <dt>${t.entityCount}</dt><dd>${health.entity_count}</dd>
      <dt>${t.latestSnapshot}</dt><dd class="mono">${health.latest_snapshot_id_exact ?? t.none}</dd>`;
  }

  render() {
    const t = this.t;
    const b = this.backing;
    const editable = canEdit(this.context?.roles ?? []);
    const columns: Column<{ column: string; property: string }>[] = [
      { label: t.column, cell: (m) => html`<span class="mono">${m.column}</span>` },
      { label: t.property, cell: (m) => html`<span class="mono">${m.property}</span>` },
    ];
    return html`<section aria-labelledby="backing-heading">
      <h4 id="backing-heading">${format(t.backingOf, { name: b.name, dataset: b.dataset_id })}</h4>
      <dl>
        <dt>${t.dataset}</dt><dd class="mono">${b.dataset_id}</dd>
        <dt>${t.typeVersion}</dt><dd>${b.entity_type_version === null ? t.followsCurrent : format(t.pinned, { version: b.entity_type_version })}</dd>
        <dt>${t.keyColumns}</dt><dd class="mono">${b.key_columns.join(', ')}</dd>
        <dt>${t.identityPolicy}</dt><dd class="mono">${b.identity_policy_id ?? t.none}</dd>
        <dt>${t.appliedFingerprint}</dt><dd class="mono">${b.applied_sync_spec_fingerprint ?? t.none}</dd>
        <dt>${t.appliedSnapshot}</dt><dd class="mono">${b.applied_snapshot_id_exact ?? t.none}</dd>
        ${this.renderHealth()}
      </dl>
      ${scrollRegion(format(t.mappingOf, { name: b.name }), html`<console-table .caption=${format(t.mappingOf, { name: b.name })} .empty=${t.none} .columns=${columns} .rows=${b.mappings}></console-table>`)}
      ${editable ? html`<div class="actions">
        <button type="button" class="primary" aria-label=${format(t.syncNowOf, { name: b.name })} ?disabled=${this.busy} @click=${() => this.sync(false)}>${t.syncNow}</button>
        <button type="button" aria-label=${format(t.forceSyncOf, { name: b.name })} ?disabled=${this.busy} @click=${() => this.sync(true)}>${t.forceSync}</button>
      </div>` : nothing}
      <console-ontology-sync-runs .context=${this.context} .backing=${b}></console-ontology-sync-runs>
    </section>`;
  }
}

if (!customElements.get('console-ontology-backing')) customElements.define('console-ontology-backing', OntologyBacking);
