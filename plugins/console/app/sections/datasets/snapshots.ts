// <console-dataset-snapshots>: a dataset's kept snapshots, newest first (GET
// /api/v1/datasets/{id}/snapshots, `before` for older ones). Each shows its
// exact 64-bit id (the `_exact` string: a JavaScript number cannot hold it)
// with a Copy button, and a Preview button that shows the rows as of it.
import { LitElement, css, html, nothing } from 'lit';
import { format } from '../../i18n.ts';
import type { SectionContext } from '../contract.ts';
import { shared } from '../../ui/styles.ts';
import '../../ui/copy-button.ts';
import '../../ui/row-button.ts';
import '../../ui/table.ts';
import type { Column } from '../../ui/table.ts';
import { DATASETS_STRINGS } from './strings.ts';
import { when, type Snapshot } from './types.ts';

const PAGE = 20;

export class DatasetSnapshots extends LitElement {
  static properties = { context: { attribute: false }, datasetId: { attribute: false }, items: { state: true }, more: { state: true } };
  declare context: SectionContext | undefined;
  declare datasetId: string;
  declare items: Snapshot[] | null;
  declare more: boolean;
  private loadedKey = '';
  static styles = [shared, css`
    code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 0.875rem; user-select: all; }
    .id { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; }
    .more { margin-top: 0.5rem; }
  `];

  constructor() {
    super();
    this.datasetId = '';
    this.items = null;
    this.more = false;
  }

  private get t() { return DATASETS_STRINGS[this.context?.locale ?? 'en']; }

  protected willUpdate(): void {
    const key = `${this.context?.tenant}|${this.datasetId}`;
    if (!this.context || !this.datasetId || key === this.loadedKey) return;
    this.loadedKey = key;
    this.items = null;
    void this.load(key, undefined);
  }

  private async load(key: string, before: string | undefined): Promise<void> {
    try {
      const page = await this.context!.api.get<{ items: Snapshot[] }>(`/api/v1/datasets/${encodeURIComponent(this.datasetId)}/snapshots`, { query: { limit: PAGE, before } });
      if (key !== this.loadedKey) return;
      this.items = [...(before ? this.items ?? [] : []), ...page.items];
      this.more = page.items.length === PAGE;
    } catch {
      if (key === this.loadedKey) this.items ??= [];
    }
  }

  private preview(id: string): void {
    this.dispatchEvent(new CustomEvent('preview-snapshot', { detail: id, bubbles: true, composed: true }));
  }

  private columns(): Column<Snapshot>[] {
    const t = this.t;
    const locale = this.context?.locale ?? 'en';
    const announce = (message: string) => this.context?.announce(message);
    return [
      { label: t.snapshotId, cell: (s) => html`<span class="id"><code>${s.snapshot_id_exact}</code>
        <console-copy-button .value=${s.snapshot_id_exact} label=${format(t.copyId, { id: s.snapshot_id_exact })} .announce=${announce}
          copied=${format(t.copied, { value: s.snapshot_id_exact })} failed=${t.copyFailed}>${t.copy}</console-copy-button></span>` },
      { label: t.time, cell: (s) => when(locale, s.created_at) },
      { label: t.rows, numeric: true, cell: (s) => s.row_count.toLocaleString(locale) },
      { label: t.change, numeric: true, cell: (s) => `+${s.rows_added.toLocaleString(locale)} / −${s.rows_removed.toLocaleString(locale)}` },
      { label: t.operation, cell: (s) => s.operation },
      { label: t.actions, cell: (s) => html`<console-row-button label=${format(t.previewSnapshotLabel, { id: s.snapshot_id_exact })} @click=${() => this.preview(s.snapshot_id_exact)}>${t.previewSnapshot}</console-row-button>` },
    ];
  }

  render() {
    const t = this.t;
    if (!this.items) return html`<p aria-busy="true">${t.loading}</p>`;
    const last = this.items.at(-1);
    return html`<console-table hide-caption .caption=${t.snapshots} .columns=${this.columns()} .rows=${this.items} .empty=${t.noSnapshots}></console-table>
      ${this.more && last ? html`<p class="more"><button type="button" @click=${() => this.load(this.loadedKey, last.snapshot_id_exact)}>${t.olderSnapshots}</button></p>` : nothing}`;
  }
}

if (!customElements.get('console-dataset-snapshots')) customElements.define('console-dataset-snapshots', DatasetSnapshots);
