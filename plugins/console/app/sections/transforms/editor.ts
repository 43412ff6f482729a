// <console-transform-editor>: a transform's form (a new one when `transform`
// is null): name, description, the SQL editor, parameters (JSON), output
// dataset, materialization, unique key and, for a saved one, its status.
// Review (POST /api/v1/transforms/review) lists each finding at its line and
// column and marks it in the editor, with the inputs found; Preview (POST
// /api/v1/transforms/preview) shows the first rows. Create (POST
// /api/v1/transforms), save (PATCH, the changed fields) and delete (DELETE,
// after a confirm dialog) fire `saved` ({id}) and `deleted`.
import { LitElement, html, nothing } from 'lit';
import { keyed } from 'lit/directives/keyed.js';
import { format } from '../../i18n.ts';
import type { SectionContext } from '../contract.ts';
import { confirmDialog } from '../../ui/confirm-dialog.ts';
import type { Mark } from './codemirror.ts';
import './review.ts';
import './sql-editor.ts';
import { TRANSFORMS_STRINGS, type TransformsStrings } from './strings.ts';
import { transformsStyles } from './styles.ts';
import type { Preview, Review, Transform } from './types.ts';

const NEW_SQL = 'SELECT\n  \nFROM ';

export class TransformEditor extends LitElement {
  static properties = {
    context: { attribute: false }, transform: { attribute: false },
    sql: { state: true }, review: { state: true }, preview: { state: true }, busy: { state: true }, parametersError: { state: true },
  };
  declare context: SectionContext | undefined;
  declare transform: Transform | null;
  declare sql: string;
  declare review: Review | null;
  declare preview: Preview | null;
  declare busy: boolean;
  declare parametersError: boolean;
  private shownId: string | null | undefined;
  static styles = transformsStyles;

  constructor() {
    super();
    this.transform = null;
    this.sql = NEW_SQL;
    this.review = null;
    this.preview = null;
    this.busy = false;
    this.parametersError = false;
  }

  private get t(): TransformsStrings { return TRANSFORMS_STRINGS[this.context?.locale ?? 'en']; }

  protected willUpdate(changed: Map<PropertyKey, unknown>): void {
    const id = this.transform?.id ?? null;
    if (changed.has('transform') && id !== this.shownId) {
      this.shownId = id;
      this.sql = this.transform?.sql ?? NEW_SQL;
      Object.assign(this, { review: null, preview: null, parametersError: false });
    }
  }

  private get form(): HTMLFormElement { return this.renderRoot.querySelector('form')!; }

  /** The parameters field as an object, or undefined (and the field flagged) when it is not a JSON object. */
  private parameters(): Record<string, unknown> | undefined {
    const text = String(new FormData(this.form).get('parameters') ?? '').trim();
    let value: unknown = {};
    try {
      value = text ? JSON.parse(text) : {};
    } catch { value = null; }
    this.parametersError = !value || typeof value !== 'object' || Array.isArray(value);
    return this.parametersError ? undefined : value as Record<string, unknown>;
  }

  private get marks(): Mark[] {
    return (this.review?.findings ?? []).filter((f) => f.line !== undefined)
      .map((f) => ({ line: f.line!, column: f.column ?? 1, severity: f.severity, message: f.message }));
  }

  private async runReview(): Promise<void> {
    const parameters = this.parameters();
    if (!parameters) return;
    this.busy = true;
    try {
      this.review = await this.context!.api.post<Review>('/api/v1/transforms/review', { sql: this.sql, parameters });
      this.preview = null;
      const errors = this.review.findings.filter((f) => f.severity === 'error').length;
      this.context!.announce(format(this.t.reviewed, { result: this.review.ok ? this.t.reviewClean : format(this.t.reviewErrors, { count: errors }) }));
    } catch { /* shown by the shell */ } finally {
      this.busy = false;
    }
  }

  private async runPreview(): Promise<void> {
    const parameters = this.parameters();
    if (!parameters) return;
    this.busy = true;
    try {
      this.preview = await this.context!.api.post<Preview>('/api/v1/transforms/preview', { sql: this.sql, parameters, limit: 50 });
      this.context!.announce(format(this.t.previewed, { count: this.preview.rows.length }));
    } catch { /* shown by the shell */ } finally {
      this.busy = false;
    }
  }

  /** The form's fields as the API takes them (empty optional ones left out). */
  private fields(): Record<string, unknown> | undefined {
    const parameters = this.parameters();
    if (!parameters || !this.form.reportValidity()) return undefined;
    const data = new FormData(this.form);
    const text = (name: string) => String(data.get(name) ?? '').trim();
    const fields: Record<string, unknown> = {
      name: text('name'), description: text('description'), sql: this.sql, parameters, materialization: text('materialization'),
      unique_key: text('unique_key').split(',').map((k) => k.trim()).filter(Boolean),
    };
    if (text('output_dataset')) fields.output_dataset = text('output_dataset');
    if (this.transform) fields.status = text('status');
    return fields;
  }

  private async save(event: Event): Promise<void> {
    event.preventDefault();
    const fields = this.fields();
    if (!fields) return;
    const current = this.transform;
    this.busy = true;
    try {
      let saved: Transform;
      if (!current) {
        saved = await this.context!.api.post<Transform>('/api/v1/transforms', fields);
        this.context!.announce(format(this.t.created, { name: saved.name }));
      } else {
        const changed = Object.fromEntries(Object.entries(fields).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify((current as unknown as Record<string, unknown>)[key])));
        saved = Object.keys(changed).length ? await this.context!.api.patch<Transform>(`/api/v1/transforms/${current.id}`, changed) : current;
        this.context!.announce(format(this.t.saved, { name: saved.name }));
      }
      this.dispatchEvent(new CustomEvent('saved', { detail: { id: saved.id } }));
    } catch { /* shown by the shell */ } finally {
      this.busy = false;
    }
  }

  private async deleteTransform(): Promise<void> {
    const current = this.transform;
    if (!current) return;
    const t = this.t;
    if (!(await confirmDialog({ message: format(t.deleteConfirm, { name: current.name }), confirmLabel: t.delete, cancelLabel: t.cancel }))) return;
    try {
      await this.context!.api.delete(`/api/v1/transforms/${current.id}`);
      this.context!.announce(format(t.deleted, { name: current.name }));
      this.dispatchEvent(new CustomEvent('deleted'));
    } catch { /* shown by the shell */ }
  }

  render() {
    const t = this.t;
    const x = this.transform;
    // Keyed by the transform: another one gets fresh fields (and a fresh editor), never the previous one's edits.
    return html`${keyed(x?.id ?? 'new', html`<form aria-label=${x ? format(t.editing, { name: x.name }) : t.creating} @submit=${this.save}>
      <div class="grid">
        <div class="field"><label for="name">${t.name}<span class="req" aria-hidden="true">*</span></label>
          <input id="name" name="name" required pattern="[A-Za-z0-9_\\-]{1,100}" autocomplete="off" .value=${x?.name ?? ''}></div>
        <div class="field"><label for="output">${t.output}</label>
          <input id="output" name="output_dataset" aria-describedby="output-hint" autocomplete="off" .value=${x?.output_dataset ?? ''}>
          <p id="output-hint" class="hint">${t.outputHint}</p></div>
      </div>
      <div class="field"><label for="description">${t.description}</label>
        <input id="description" name="description" autocomplete="off" .value=${x?.description ?? ''}></div>
      <div class="field"><span class="label" @click=${() => this.renderRoot.querySelector<HTMLElement>('console-sql-editor')?.focus()}>${t.sql}</span>
        <console-sql-editor .label=${t.sql} .value=${this.sql} .marks=${this.marks}
          @sql-change=${(e: Event) => { this.sql = (e.target as HTMLElement & { value: string }).value; }}></console-sql-editor>
        <p class="hint">${t.sqlHint}</p></div>
      <div class="field"><label for="parameters">${t.parameters}</label>
        <textarea id="parameters" name="parameters" rows="2" aria-describedby="parameters-hint ${this.parametersError ? 'parameters-error' : ''}"
          aria-invalid=${this.parametersError ? 'true' : 'false'} .value=${x && Object.keys(x.parameters).length ? JSON.stringify(x.parameters) : ''}></textarea>
        <p id="parameters-hint" class="hint">${t.parametersHint}</p>
        ${this.parametersError ? html`<p id="parameters-error" class="error-text">${t.parametersInvalid}</p>` : nothing}</div>
      <div class="grid">
        <div class="field"><label for="materialization">${t.materialization}</label>
          <select id="materialization" name="materialization">${['table', 'incremental'].map((m) => html`<option value=${m} ?selected=${(x?.materialization ?? 'table') === m}>${t.materializations[m]}</option>`)}</select></div>
        <div class="field"><label for="unique-key">${t.uniqueKey}</label>
          <input id="unique-key" name="unique_key" aria-describedby="unique-key-hint" autocomplete="off" .value=${x?.unique_key.join(', ') ?? ''}>
          <p id="unique-key-hint" class="hint">${t.uniqueKeyHint}</p></div>
        ${x ? html`<div class="field"><label for="status">${t.status}</label>
          <select id="status" name="status">${['active', 'archived'].map((s) => html`<option value=${s} ?selected=${x.status === s}>${t.statuses[s]}</option>`)}</select></div>` : nothing}
      </div>
      <div class="actions">
        <button type="button" ?disabled=${this.busy} @click=${() => this.runReview()}>${t.review}</button>
        <button type="button" ?disabled=${this.busy} @click=${() => this.runPreview()}>${t.preview}</button>
        <button type="submit" class="primary" ?disabled=${this.busy}>${x ? t.save : t.create}</button>
        ${x ? html`<button type="button" class="danger" ?disabled=${this.busy} @click=${() => this.deleteTransform()}>${t.delete}</button>` : nothing}
      </div>
    </form>`)}
    <console-transform-review .strings=${t} .review=${this.review} .preview=${this.preview}></console-transform-review>`;
  }
}

if (!customElements.get('console-transform-editor')) customElements.define('console-transform-editor', TransformEditor);
