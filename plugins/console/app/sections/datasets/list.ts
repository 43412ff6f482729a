// <console-datasets-list>: the datasets the person may read in the tenant
// (GET /api/v1/datasets: its own and the shared ones), filtered by name (`q`)
// and namespace, a page at a time; a name opens the dataset.
import { css, html, nothing } from 'lit';
import { format } from '../../i18n.ts';
import type { SectionContext } from '../contract.ts';
import { formStyles } from '../../ui/form-styles.ts';
import { shared } from '../../ui/styles.ts';
import { TenantSection } from '../../ui/tenant-section.ts';
import '../../ui/row-button.ts';
import '../../ui/table.ts';
import type { Column } from '../../ui/table.ts';
import { DATASETS_STRINGS, type DatasetsStrings } from './strings.ts';
import { openDatasetEvent, when, writerLabel, type Dataset, type DatasetList } from './types.ts';

const PAGE = 50;
const NAMESPACES = ['raw', 'derived', 'registry', 'sandbox'];

export class DatasetsList extends TenantSection<DatasetsStrings> {
  static properties = { page: { state: true }, q: { state: true }, namespace: { state: true }, offset: { state: true } };
  declare page: DatasetList | null;
  declare q: string;
  declare namespace: string;
  declare offset: number;
  protected strings = DATASETS_STRINGS;
  static styles = [shared, formStyles, css`
    form.filters { display: flex; flex-wrap: wrap; gap: 0.75rem 1rem; align-items: end; max-width: none; margin-bottom: 1rem; }
    .pager { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; margin-top: 0.75rem; }
  `];

  constructor() {
    super();
    this.page = null;
    this.q = '';
    this.namespace = '';
    this.offset = 0;
  }

  protected contextChanged(): void {
    this.q = '';
    this.namespace = '';
    this.offset = 0;
    void this.load(false);
  }

  private async load(announce: boolean): Promise<void> {
    const context = this.context as SectionContext;
    try {
      this.page = await context.api.get<DatasetList>('/api/v1/datasets', { query: { q: this.q.trim() || undefined, namespace: this.namespace || undefined, limit: PAGE, offset: this.offset } });
      if (announce) context.announce(format(this.t.listUpdated, { count: this.page.items.length }));
    } catch {
      this.page ??= { items: [], total: 0, limit: PAGE, offset: 0 };
    }
  }

  private search(event: SubmitEvent): void {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    this.q = String(data.get('q') ?? '');
    this.namespace = String(data.get('namespace') ?? '');
    this.offset = 0;
    void this.load(true);
  }

  private clear(): void {
    this.q = '';
    this.namespace = '';
    this.offset = 0;
    void this.load(true);
  }

  private turn(offset: number): void {
    this.offset = Math.max(0, offset);
    void this.load(true);
  }

  private columns(): Column<Dataset>[] {
    const t = this.t;
    const locale = this.context?.locale ?? 'en';
    return [
      { label: t.name, cell: (d) => html`<console-row-button variant="link" label=${format(t.open, { name: d.id })} @click=${() => this.dispatchEvent(openDatasetEvent(d.id))}>${d.id}</console-row-button>` },
      { label: t.namespace, cell: (d) => d.namespace },
      { label: t.rows, numeric: true, cell: (d) => d.row_count.toLocaleString(locale) },
      { label: t.updated, cell: (d) => when(locale, d.updated_at) },
      { label: t.writtenBy, cell: (d) => writerLabel(t, d.producer) },
    ];
  }

  render() {
    const t = this.t;
    const page = this.page;
    return html`<section aria-labelledby="datasets-heading">
      <h2 id="datasets-heading">${t.datasets}</h2>
      <p class="muted">${t.intro}</p>
      <form class="filters" role="search" aria-label=${t.datasets} @submit=${this.search}>
        <div class="field"><label for="q">${t.filterName}</label>
          <input id="q" name="q" type="search" maxlength="200" pattern="[A-Za-z0-9_.\\-]*" .value=${this.q} autocomplete="off"></div>
        <div class="field"><label for="namespace">${t.filterNamespace}</label>
          <select id="namespace" name="namespace" .value=${this.namespace}>
            <option value="">${t.anyNamespace}</option>
            ${NAMESPACES.map((n) => html`<option value=${n} ?selected=${n === this.namespace}>${n}</option>`)}
          </select></div>
        <div class="actions"><button type="submit" class="primary">${t.search}</button>
          <button type="button" @click=${this.clear}>${t.clear}</button></div>
      </form>
      ${page ? html`<console-table hide-caption .caption=${t.datasets} .columns=${this.columns()} .rows=${page.items} .empty=${t.noDatasets}></console-table>
        ${page.total > page.items.length ? html`<div class="pager">
          <span>${format(t.listRange, { from: page.offset + 1, to: page.offset + page.items.length, total: page.total })}</span>
          <button type="button" ?disabled=${page.offset === 0} @click=${() => this.turn(page.offset - PAGE)}>${t.previousPage}</button>
          <button type="button" ?disabled=${page.offset + page.items.length >= page.total} @click=${() => this.turn(page.offset + PAGE)}>${t.nextPage}</button>
        </div>` : nothing}`
      : html`<p aria-busy="true">${t.loading}</p>`}
    </section>`;
  }
}

if (!customElements.get('console-datasets-list')) customElements.define('console-datasets-list', DatasetsList);
