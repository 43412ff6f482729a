// <console-table>: a data table with a caption, its columns' headers and
// rows of cells (text or a template), and what to say when there are no rows.
// `hide-caption`: the caption is for assistive technology only.
import { LitElement, css, html, type TemplateResult } from 'lit';

export interface Column<Row> {
  label: string;
  cell: (row: Row) => string | number | TemplateResult;
  /** Right-aligned (numbers). */
  numeric?: boolean;
}

export class DataTable<Row = unknown> extends LitElement {
  static properties = { caption: {}, columns: { attribute: false }, rows: { attribute: false }, empty: {}, hideCaption: { type: Boolean, attribute: 'hide-caption' } };
  declare caption: string;
  declare columns: Column<Row>[];
  declare rows: Row[];
  declare empty: string;
  /** The caption names the table for assistive technology only (a heading above already says it). */
  declare hideCaption: boolean;
  constructor() {
    super();
    this.caption = '';
    this.columns = [];
    this.rows = [];
    this.empty = '';
    this.hideCaption = false;
  }
  static styles = css`
    :host { display: block; overflow-x: auto; }
    table { border-collapse: collapse; width: 100%; font-size: 0.95rem; }
    caption { text-align: left; font-weight: 600; padding: 0.25rem 0 0.5rem; }
    caption.hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; padding: 0; }
    th, td { text-align: left; padding: 0.4rem 0.6rem; border-bottom: 1px solid var(--border); vertical-align: top; }
    th { color: var(--muted); font-weight: 600; }
    .num { text-align: right; font-variant-numeric: tabular-nums; }
    p { color: var(--muted); margin: 0.25rem 0; }
  `;
  render() {
    if (this.rows.length === 0) return html`<p>${this.caption}: ${this.empty}</p>`;
    return html`<table>
      <caption class=${this.hideCaption ? 'hidden' : ''}>${this.caption}</caption>
      <thead><tr>${this.columns.map((c) => html`<th scope="col" class=${c.numeric ? 'num' : ''}>${c.label}</th>`)}</tr></thead>
      <tbody>${this.rows.map((row) => html`<tr>${this.columns.map((c) => html`<td class=${c.numeric ? 'num' : ''}>${c.cell(row)}</td>`)}</tr>`)}</tbody>
    </table>`;
  }
}
if (!customElements.get('console-table')) customElements.define('console-table', DataTable);
