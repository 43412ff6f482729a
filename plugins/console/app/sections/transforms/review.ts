// <console-transform-review>: what Review and Preview answered for the SQL
// in the editor: each finding with its line and column (the editor marks the
// same), the inputs and output columns found; the preview's first rows.
import { LitElement, html, nothing } from 'lit';
import { format } from '../../i18n.ts';
import '../../ui/status-badge.ts';
import '../../ui/table.ts';
import type { Column } from '../../ui/table.ts';
import type { TransformsStrings } from './strings.ts';
import { transformsStyles } from './styles.ts';
import type { Preview, Review } from './types.ts';

/** A cell's text: null as a dash, objects as JSON. */
export function cellText(value: unknown, none: string): string {
  if (value === null || value === undefined) return none;
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

export class TransformReview extends LitElement {
  static properties = { strings: { attribute: false }, review: { attribute: false }, preview: { attribute: false } };
  declare strings: TransformsStrings;
  declare review: Review | null;
  declare preview: Preview | null;
  static styles = transformsStyles;

  constructor() {
    super();
    this.review = null;
    this.preview = null;
  }

  private renderReview(review: Review) {
    const t = this.strings;
    const errors = review.findings.filter((f) => f.severity === 'error').length;
    const warnings = review.findings.length - errors;
    return html`<section aria-labelledby="review-heading">
      <h3 id="review-heading">${t.reviewHeading}</h3>
      <p><console-status tone=${review.ok ? 'ok' : 'error'}>${review.ok ? t.reviewClean : format(t.reviewErrors, { count: errors })}</console-status>
        ${warnings ? html` <console-status tone="warn">${format(t.warnings, { count: warnings })}</console-status>` : nothing}</p>
      ${review.findings.length ? html`<ul class="findings" aria-label=${t.findings}>${review.findings.map((f) => html`<li>
        <console-status tone=${f.severity === 'error' ? 'error' : 'warn'}>${f.severity === 'error' ? t.error : t.warning}</console-status>
        ${f.line !== undefined ? html`<span class="where">${format(t.at, { line: f.line, column: f.column ?? 1 })}</span>` : nothing}
        <span>${f.message}</span> <code>${f.rule}</code></li>`)}</ul>` : nothing}
      <dl>
        <dt>${t.inputsFound}</dt><dd>${review.analysis.inputs.length ? review.analysis.inputs.map((id, i) => html`${i ? ', ' : ''}<code>${id}</code>`) : t.noInputs}</dd>
        <dt>${t.columns}</dt><dd>${review.analysis.columns.length ? review.analysis.columns.map((c, i) => html`${i ? ', ' : ''}<code>${c.name}</code> (${c.type})`) : t.none}</dd>
      </dl>
    </section>`;
  }

  private renderPreview(preview: Preview) {
    const t = this.strings;
    const columns: Column<Record<string, unknown>>[] = preview.columns.map((c) => ({
      label: c.name, numeric: ['bigint', 'numeric', 'double'].includes(c.type), cell: (row) => cellText(row[c.name], t.none),
    }));
    return html`<section aria-labelledby="preview-heading">
      <h3 id="preview-heading">${t.previewHeading}</h3>
      <p class="muted">${format(t.previewNote, { count: preview.rows.length, sample: preview.sample_rows_per_input })}</p>
      <console-table tabindex="0" role="region" aria-label=${t.previewRows} hide-caption .caption=${t.previewHeading} .empty=${t.noRows} .columns=${columns} .rows=${preview.rows}></console-table>
    </section>`;
  }

  render() {
    return html`${this.review ? this.renderReview(this.review) : nothing}${this.preview ? this.renderPreview(this.preview) : nothing}`;
  }
}

if (!customElements.get('console-transform-review')) customElements.define('console-transform-review', TransformReview);
