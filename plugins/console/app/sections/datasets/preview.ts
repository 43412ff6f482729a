// <console-dataset-preview>: a page of a dataset's rows (GET
// /api/v1/datasets/{id}/preview), of the latest snapshot or, with
// `snapshotId`, as of that snapshot (time travel); Previous and Next rows
// page through it with `offset`.
import { LitElement, css, html, nothing } from 'lit';
import { format } from '../../i18n.ts';
import type { SectionContext } from '../contract.ts';
import { shared } from '../../ui/styles.ts';
import { DATASETS_STRINGS } from './strings.ts';
import type { Preview } from './types.ts';

const ROWS = 25;

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

export class DatasetPreview extends LitElement {
  static properties = {
    context: { attribute: false }, datasetId: { attribute: false }, snapshotId: { attribute: false },
    preview: { state: true }, offset: { state: true },
  };
  /** The snapshot the loaded preview is of (the caption says it; `snapshotId` may be ahead while loading). */
  private shownSnapshot: string | null = null;
  declare context: SectionContext | undefined;
  declare datasetId: string;
  /** The snapshot shown; null: the latest. */
  declare snapshotId: string | null;
  declare preview: Preview | null;
  declare offset: number;
  private loadedKey = '';
  static styles = [shared, css`
    .scroll { overflow-x: auto; max-width: 100%; }
    table { border-collapse: collapse; font-size: 0.9rem; min-width: 100%; }
    caption { text-align: left; font-weight: 600; padding: 0 0 0.5rem; }
    th, td { text-align: left; padding: 0.3rem 0.6rem; border-bottom: 1px solid var(--border); vertical-align: top; white-space: nowrap; max-width: 24rem; overflow: hidden; text-overflow: ellipsis; }
    th { color: var(--muted); font-weight: 600; }
    th span { font-weight: 400; font-size: 0.8rem; }
    .null { color: var(--muted); font-style: italic; }
    .pager { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; margin-top: 0.5rem; }
    button:disabled { opacity: 0.6; cursor: default; }
  `];

  constructor() {
    super();
    this.datasetId = '';
    this.snapshotId = null;
    this.preview = null;
    this.offset = 0;
  }

  private get t() { return DATASETS_STRINGS[this.context?.locale ?? 'en']; }

  protected willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('snapshotId') || changed.has('datasetId')) this.offset = 0;
    const key = `${this.context?.tenant}|${this.datasetId}|${this.snapshotId}|${this.offset}`;
    if (!this.context || !this.datasetId || key === this.loadedKey) return;
    this.loadedKey = key;
    void this.load(key);
  }

  private async load(key: string): Promise<void> {
    try {
      const preview = await this.context!.api.get<Preview>(`/api/v1/datasets/${encodeURIComponent(this.datasetId)}/preview`,
        { query: { snapshot_id: this.snapshotId ?? undefined, limit: ROWS, offset: this.offset } });
      if (key !== this.loadedKey) return;
      this.shownSnapshot = this.snapshotId;
      this.preview = preview;
    } catch {
      if (key === this.loadedKey) this.preview = null;
    }
  }

  private backToLatest(): void {
    this.dispatchEvent(new CustomEvent('preview-snapshot', { detail: null, bubbles: true, composed: true }));
  }

  render() {
    const t = this.t;
    const preview = this.preview;
    const title = this.shownSnapshot ? format(t.previewAsOf, { id: this.shownSnapshot }) : t.previewLatest;
    if (!preview) return html`<p aria-busy="true">${t.loading}</p>`;
    const range = preview.rows.length ? format(t.previewRange, { from: preview.offset + 1, to: preview.offset + preview.rows.length }) : t.previewEmpty;
    return html`
      ${this.shownSnapshot ? html`<p><button type="button" @click=${this.backToLatest}>${t.backToLatest}</button></p>` : nothing}
      ${preview.rows.length ? html`<div class="scroll" role="region" aria-label=${title} tabindex="0"><table>
        <caption>${title}</caption>
        <thead><tr>${preview.columns.map((c) => html`<th scope="col">${c.name} <span>${c.type}</span></th>`)}</tr></thead>
        <tbody>${preview.rows.map((row) => html`<tr>${preview.columns.map((c) => row[c.name] === null || row[c.name] === undefined
          ? html`<td class="null">${t.nullValue}</td>` : html`<td title=${cellText(row[c.name])}>${cellText(row[c.name])}</td>`)}</tr>`)}</tbody>
      </table></div>` : html`<p>${title}: ${t.previewEmpty}</p>`}
      <div class="pager">
        <span>${range}</span>
        <button type="button" ?disabled=${preview.offset === 0} @click=${() => { this.offset = Math.max(0, this.offset - ROWS); }}>${t.previousRows}</button>
        <button type="button" ?disabled=${preview.rows.length < ROWS} @click=${() => { this.offset += ROWS; }}>${t.nextRows}</button>
      </div>`;
  }
}

if (!customElements.get('console-dataset-preview')) customElements.define('console-dataset-preview', DatasetPreview);
