// <console-ontology-dry-run>: a policy's dry run (POST
// /api/v1/identity-policies/{id}/dry-run, which stores nothing): on a
// sample of a dataset the tenant may read (GET /api/v1/datasets; the column
// naming each record, the rows sampled) or on records given as JSON, at a
// chosen version; shows each merge with the rule that matched, the
// entities of several records, and the blocks too large to compare.
import { html, nothing } from 'lit';
import { format } from '../../i18n.ts';
import { scrollRegion } from '../../ui/scroll-region.ts';
import { TenantSection } from '../../ui/tenant-section.ts';
import '../../ui/table.ts';
import type { Column } from '../../ui/table.ts';
import { ontologyStyles } from './common.ts';
import { ONTOLOGY_STRINGS, type OntologyStrings } from './strings.ts';
import type { Dataset, DryRunResult, Policy, PolicyVersion } from './types.ts';

type Merge = DryRunResult['merges'][number];
const DEFAULT_LIMIT = 100;

export class OntologyDryRun extends TenantSection<OntologyStrings> {
  static properties = {
    policy: { attribute: false }, versions: { attribute: false },
    datasets: { state: true }, source: { state: true }, datasetId: { state: true }, result: { state: true }, recordsError: { state: true }, busy: { state: true },
  };
  declare policy: Policy;
  declare versions: PolicyVersion[];
  declare datasets: Dataset[];
  declare source: 'dataset' | 'records';
  declare datasetId: string;
  declare result: DryRunResult | null;
  declare recordsError: string;
  declare busy: boolean;
  static styles = ontologyStyles;
  protected strings = ONTOLOGY_STRINGS;

  constructor() {
    super();
    this.versions = [];
    this.datasets = [];
    this.source = 'dataset';
    this.datasetId = '';
    this.result = null;
    this.recordsError = '';
    this.busy = false;
  }

  protected contextChanged(): void {
    this.result = null;
    void this.context?.api.get<{ items: Dataset[] }>('/api/v1/datasets', { query: { limit: 500 } })
      .then((r) => { this.datasets = r.items; }, () => { this.datasets = []; });
  }

  protected willUpdate(changed: Map<PropertyKey, unknown>): void {
    super.willUpdate(changed);
    if (changed.has('policy') && changed.get('policy') !== undefined) this.result = null;
  }

  private async submit(event: Event): Promise<void> {
    event.preventDefault();
    const t = this.t;
    const data = new FormData(event.target as HTMLFormElement);
    const body: Record<string, unknown> = { version: Number(data.get('version')) };
    if (this.source === 'records') {
      try {
        body.records = JSON.parse(String(data.get('records') ?? ''));
        this.recordsError = '';
      } catch (err) {
        this.recordsError = format(t.invalidJson, { field: t.recordsField, message: (err as Error).message });
        await this.updateComplete;
        this.renderRoot.querySelector<HTMLElement>('#dry-records')?.focus();
        return;
      }
    } else {
      body.dataset_id = String(data.get('dataset_id') ?? '');
      const refColumn = String(data.get('ref_column') ?? '');
      if (refColumn) body.ref_column = refColumn;
      body.limit = Number(data.get('limit')) || DEFAULT_LIMIT;
    }
    this.busy = true;
    try {
      const result = await this.context!.api.post<DryRunResult>(`/api/v1/identity-policies/${this.policy.id}/dry-run`, body);
      this.result = result;
      this.context!.announce(format(t.dryRunDone, { merges: result.merges.length, records: result.records }));
    } catch { /* shown by the client */ } finally {
      this.busy = false;
    }
  }

  private renderSource() {
    const t = this.t;
    if (this.source === 'records') {
      return html`<div class="field">
        <label for="dry-records">${t.recordsField}</label>
        <textarea id="dry-records" name="records" rows="6" spellcheck="false" required
          aria-invalid=${this.recordsError ? 'true' : 'false'} aria-describedby="dry-records-hint"></textarea>
        <p id="dry-records-hint" class=${this.recordsError ? 'hint error' : 'hint'}>${this.recordsError || t.recordsHint}</p>
      </div>`;
    }
    const dataset = this.datasets.find((d) => d.id === this.datasetId);
    return html`<div class="field">
        <label for="dry-dataset">${t.datasetField}</label>
        <select id="dry-dataset" name="dataset_id" required @change=${(e: Event) => { this.datasetId = (e.target as HTMLSelectElement).value; }}>
          <option value="" ?selected=${!this.datasetId}>${t.chooseDataset}</option>
          ${this.datasets.map((d) => html`<option value=${d.id} ?selected=${d.id === this.datasetId}>${d.id}</option>`)}
        </select>
      </div>
      <div class="field">
        <label for="dry-ref">${t.refColumn}</label>
        <select id="dry-ref" name="ref_column">
          <option value="">${t.refColumnNone}</option>
          ${(dataset?.columns ?? []).map((c) => html`<option value=${c.name} ?selected=${dataset?.primary_key[0] === c.name}>${c.name}</option>`)}
        </select>
      </div>
      <div class="field">
        <label for="dry-limit">${t.sampleLimit}</label>
        <input id="dry-limit" name="limit" type="number" min="2" max="1000000" .value=${String(DEFAULT_LIMIT)}>
      </div>`;
  }

  private renderResult(result: DryRunResult) {
    const t = this.t;
    const columns: Column<Merge>[] = [
      { label: t.recordA, cell: (m) => html`<span class="mono">${m.a}</span>` },
      { label: t.recordB, cell: (m) => html`<span class="mono">${m.b}</span>` },
      { label: t.rule, cell: (m) => html`<span class="mono">${m.rule}</span>` },
      { label: t.score, cell: (m) => (typeof m.score === 'number' ? m.score.toFixed(2) : t.none), numeric: true },
    ];
    const blocks: Column<DryRunResult['skipped_blocks'][number]>[] = [
      { label: t.blockKey, cell: (b) => html`<span class="mono">${b.key}</span>` },
      { label: t.blockSize, cell: (b) => b.size, numeric: true },
    ];
    return html`<h4>${format(t.dryRunOf, { version: result.version, records: result.records })}</h4>
      ${scrollRegion(t.merges, html`<console-table .caption=${t.merges} .empty=${t.noMerges} .columns=${columns} .rows=${result.merges}></console-table>`)}
      ${result.clusters.length ? html`<h4>${t.clusters}</h4>
        <ul>${result.clusters.map((refs) => html`<li>${format(t.clusterOf, { count: refs.length, refs: refs.join(', ') })}</li>`)}</ul>` : nothing}
      ${result.skipped_blocks.length ? scrollRegion(t.skippedBlocks, html`<console-table .caption=${t.skippedBlocks} .empty=${t.none} .columns=${blocks} .rows=${result.skipped_blocks}></console-table>`) : nothing}`;
  }

  render() {
    const t = this.t;
    const versions = this.versions.length ? [...this.versions].reverse() : [this.policy];
    return html`<h3 id="dry-run-heading">${t.dryRun}</h3>
      <p class="muted">${t.dryRunIntro}</p>
      <form aria-labelledby="dry-run-heading" @submit=${this.submit}>
        <div class="field">
          <label for="dry-version">${t.dryRunVersion}</label>
          <select id="dry-version" name="version">
            ${versions.map((v) => html`<option value=${v.version} ?selected=${v.version === this.policy.version}>${v.version}</option>`)}
          </select>
        </div>
        <fieldset>
          <legend>${t.dryRunSource}</legend>
          <label class="check"><input type="radio" name="source" value="dataset" .checked=${this.source === 'dataset'}
            @change=${() => { this.source = 'dataset'; }}>${t.fromDataset}</label>
          <label class="check"><input type="radio" name="source" value="records" .checked=${this.source === 'records'}
            @change=${() => { this.source = 'records'; }}>${t.fromRecords}</label>
        </fieldset>
        ${this.renderSource()}
        <div class="actions"><button type="submit" class="primary" ?disabled=${this.busy}>${t.runDryRun}</button></div>
      </form>
      ${this.result ? this.renderResult(this.result) : nothing}`;
  }
}

if (!customElements.get('console-ontology-dry-run')) customElements.define('console-ontology-dry-run', OntologyDryRun);
