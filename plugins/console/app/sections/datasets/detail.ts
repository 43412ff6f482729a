// <console-dataset-detail>: one dataset (GET /api/v1/datasets/{id}): what it
// is, its columns with their types, a preview of its rows (preview.ts), its
// snapshots (snapshots.ts: a snapshot's Preview shows the rows as of it) and
// its lineage (lineage.ts). Read-only for every member.
import { LitElement, css, html, nothing } from 'lit';
import { format } from '../../i18n.ts';
import type { SectionContext } from '../contract.ts';
import { shared } from '../../ui/styles.ts';
import '../../ui/copy-button.ts';
import '../../ui/table.ts';
import type { Column as TableColumn } from '../../ui/table.ts';
import './lineage.ts';
import './preview.ts';
import './snapshots.ts';
import { DATASETS_STRINGS } from './strings.ts';
import { when, writerLabel, type Column, type Dataset } from './types.ts';

export class DatasetDetail extends LitElement {
  static properties = {
    context: { attribute: false }, datasetId: { attribute: false },
    info: { state: true }, failed: { state: true }, snapshotId: { state: true },
  };
  declare context: SectionContext | undefined;
  declare datasetId: string;
  declare info: Dataset | null;
  declare failed: boolean;
  /** The snapshot the preview shows; null: the latest. */
  declare snapshotId: string | null;
  private loadedKey = '';
  static styles = [shared, css`
    h2 code, dd code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; }
    h2 code { font-size: 1.05rem; word-break: break-all; }
    dd code { word-break: break-all; }
    .id { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; }
    .top { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; }
  `];

  constructor() {
    super();
    this.datasetId = '';
    this.info = null;
    this.failed = false;
    this.snapshotId = null;
    this.addEventListener('preview-snapshot', (event) => this.showSnapshot((event as CustomEvent<string | null>).detail));
  }

  private get t() { return DATASETS_STRINGS[this.context?.locale ?? 'en']; }

  protected willUpdate(): void {
    const key = `${this.context?.tenant}|${this.datasetId}`;
    if (!this.context || !this.datasetId || key === this.loadedKey) return;
    this.loadedKey = key;
    this.info = null;
    this.failed = false;
    this.snapshotId = null;
    void this.context.api.get<Dataset>(`/api/v1/datasets/${encodeURIComponent(this.datasetId)}`)
      .then((dataset) => { if (key === this.loadedKey) this.info = dataset; }, () => { if (key === this.loadedKey) this.failed = true; });
  }

  private async showSnapshot(id: string | null): Promise<void> {
    this.snapshotId = id;
    this.context?.announce(id ? format(this.t.previewShown, { id }) : this.t.latestShown);
    await this.updateComplete;
    const heading = this.renderRoot.querySelector<HTMLElement>('#preview-heading');
    heading?.focus();
  }

  private back(): void {
    this.dispatchEvent(new CustomEvent('close-dataset', { bubbles: true, composed: true }));
  }

  render() {
    const t = this.t;
    const d = this.info;
    const top = html`<p class="top"><button type="button" @click=${this.back}>${t.allDatasets}</button></p>`;
    if (!d) return html`${top}${this.failed ? nothing : html`<p aria-busy="true">${t.loading}</p>`}`;
    const locale = this.context?.locale ?? 'en';
    const columns: TableColumn<Column>[] = [
      { label: t.column, cell: (c) => c.name },
      { label: t.type, cell: (c) => c.type },
    ];
    return html`${top}
      <section aria-labelledby="dataset-heading">
        <h2 id="dataset-heading"><code>${d.id}</code></h2>
        <dl aria-label=${t.about}>
          <dt>${t.namespace}</dt><dd>${d.namespace}</dd>
          <dt>${t.shared}</dt><dd>${d.shared ? t.sharedYes : t.sharedNo}</dd>
          <dt>${t.writtenBy}</dt><dd>${writerLabel(t, d.producer)}</dd>
          <dt>${t.rows}</dt><dd>${d.row_count.toLocaleString(locale)}</dd>
          <dt>${t.primaryKey}</dt><dd>${d.primary_key.length ? d.primary_key.join(', ') : t.none}</dd>
          <dt>${t.latestSnapshot}</dt><dd>${d.latest_snapshot_id_exact
            ? html`<span class="id"><code>${d.latest_snapshot_id_exact}</code><console-copy-button .value=${d.latest_snapshot_id_exact}
                label=${format(t.copyId, { id: d.latest_snapshot_id_exact })} .announce=${(m: string) => this.context?.announce(m)}
                copied=${format(t.copied, { value: d.latest_snapshot_id_exact })} failed=${t.copyFailed}>${t.copy}</console-copy-button></span>`
            : t.noSnapshot}</dd>
          <dt>${t.updated}</dt><dd>${when(locale, d.updated_at)}</dd>
        </dl>
      </section>
      <section aria-labelledby="columns-heading">
        <h2 id="columns-heading">${t.columns}</h2>
        <console-table hide-caption .caption=${t.columns} .columns=${columns} .rows=${d.columns} .empty=${t.noColumns}></console-table>
      </section>
      <section aria-labelledby="preview-heading">
        <h2 id="preview-heading" tabindex="-1">${this.snapshotId ? format(t.previewAsOf, { id: this.snapshotId }) : t.preview}</h2>
        <console-dataset-preview .context=${this.context} .datasetId=${d.id} .snapshotId=${this.snapshotId}></console-dataset-preview>
      </section>
      <section aria-labelledby="snapshots-heading">
        <h2 id="snapshots-heading">${t.snapshots}</h2>
        <console-dataset-snapshots .context=${this.context} .datasetId=${d.id}></console-dataset-snapshots>
      </section>
      <section aria-labelledby="lineage-heading">
        <h2 id="lineage-heading">${t.lineage}</h2>
        <console-dataset-lineage .context=${this.context} .datasetId=${d.id}></console-dataset-lineage>
      </section>`;
  }
}

if (!customElements.get('console-dataset-detail')) customElements.define('console-dataset-detail', DatasetDetail);
