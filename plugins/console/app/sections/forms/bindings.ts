// <console-forms-bindings>: a use case's field bindings, edited per target
// field (grouped by category: required, optional, depending on the
// settings; fields the target fills are listed, not bindable): each binding's
// source field of the form, its transform and the transform's parameters.
// A problem the API names for a binding (`binding N (…)`) is shown at it; a
// required field nothing feeds is marked. Sends `bindings-change`.
import { LitElement, html, nothing } from 'lit';
import { format } from '../../i18n.ts';
import { FORMS_STRINGS, type FormsStrings } from './strings.ts';
import { formsStyles } from './styles.ts';
import type { Binding, FieldInfo, Transform } from './types.ts';

const TRANSFORMS: Transform[] = ['NONE', 'TO_INT', 'LOOKUP', 'GEO_PARSE'];
const GROUPS = [['required', 'categoryRequired'], ['optional', 'categoryOptional'], ['dynamic', 'categoryDynamic']] as const;

export class FormsBindings extends LitElement {
  static properties = {
    locale: {}, fields: { attribute: false }, sources: { attribute: false }, standard: { attribute: false },
    bindings: { attribute: false }, problems: { attribute: false }, unbound: { attribute: false }, lookupErrors: { state: true },
  };
  declare locale: 'en' | 'pt';
  declare fields: FieldInfo[];
  declare sources: { path: string; label: string }[];
  /** Target field → the form field a standard mapping reads (only those the form has). */
  declare standard: Map<string, string>;
  declare bindings: Binding[];
  /** The API's problems by binding index. */
  declare problems: Map<number, string[]>;
  /** Required target fields the API found unbound. */
  declare unbound: string[];
  declare lookupErrors: Set<number>;
  static styles = formsStyles;

  constructor() {
    super();
    this.locale = 'en';
    this.fields = [];
    this.sources = [];
    this.standard = new Map();
    this.bindings = [];
    this.problems = new Map();
    this.unbound = [];
    this.lookupErrors = new Set();
  }

  private get t(): FormsStrings { return FORMS_STRINGS[this.locale]; }

  private change(bindings: Binding[]): void {
    this.bindings = bindings;
    this.dispatchEvent(new CustomEvent('bindings-change', { detail: bindings, bubbles: true, composed: true }));
  }

  private patch(index: number, patch: Partial<Binding>): void {
    this.change(this.bindings.map((b, i) => (i === index ? { ...b, ...patch } : b)));
  }

  private setTransform(index: number, transform: Transform): void {
    const params = transform === 'GEO_PARSE' ? { component: 'latitude' } : transform === 'LOOKUP' ? { table: {} } : {};
    this.patch(index, { transform, transform_params: params });
  }

  private setTable(index: number, text: string): void {
    const errors = new Set(this.lookupErrors);
    try {
      const table = JSON.parse(text || '{}');
      if (!table || typeof table !== 'object' || Array.isArray(table)) throw new Error('not an object');
      errors.delete(index);
      this.patch(index, { transform_params: { table } });
    } catch {
      errors.add(index);
    }
    this.lookupErrors = errors;
  }

  private add(field: FieldInfo): void {
    this.change([...this.bindings, { source_field_path: this.sources[0]?.path ?? '', target_field_path: field.key, transform: 'NONE', transform_params: {} }]);
  }

  private removeBinding(index: number): void {
    this.change(this.bindings.filter((_, i) => i !== index));
  }

  private bindingRow(binding: Binding, index: number, field: FieldInfo, nth: number) {
    const t = this.t;
    const id = `b${index}`;
    const name = field.label;
    const problems = this.problems.get(index) ?? [];
    const described = problems.length || this.lookupErrors.has(index) ? `${id}-problems` : nothing;
    return html`<div class="binding">
      <div class="field"><label for="${id}-source">${format(t.source, { field: name })}</label>
        <select id="${id}-source" aria-describedby=${described} @change=${(e: Event) => this.patch(index, { source_field_path: (e.target as HTMLSelectElement).value })}>
          ${this.sources.map((s) => html`<option value=${s.path} ?selected=${s.path === binding.source_field_path}>${s.label} (${s.path})</option>`)}
          ${this.sources.some((s) => s.path === binding.source_field_path) ? nothing : html`<option value=${binding.source_field_path} selected>${binding.source_field_path}</option>`}
        </select></div>
      <div class="field"><label for="${id}-transform">${format(t.transform, { field: name })}</label>
        <select id="${id}-transform" aria-describedby=${described} @change=${(e: Event) => this.setTransform(index, (e.target as HTMLSelectElement).value as Transform)}>
          ${TRANSFORMS.map((tr) => html`<option value=${tr} ?selected=${tr === binding.transform}>${t[`transform${tr}`]}</option>`)}
        </select></div>
      ${binding.transform === 'LOOKUP' ? html`<div class="field"><label for="${id}-table">${format(t.lookupTable, { field: name })}</label>
        <textarea id="${id}-table" rows="3" aria-describedby=${described} aria-invalid=${this.lookupErrors.has(index) ? 'true' : 'false'}
          .value=${JSON.stringify(binding.transform_params.table ?? {})} @change=${(e: Event) => this.setTable(index, (e.target as HTMLTextAreaElement).value)}></textarea></div>` : nothing}
      ${binding.transform === 'GEO_PARSE' ? html`<div class="field"><label for="${id}-component">${format(t.coordinate, { field: name })}</label>
        <select id="${id}-component" @change=${(e: Event) => this.patch(index, { transform_params: { component: (e.target as HTMLSelectElement).value } })}>
          ${(['latitude', 'longitude'] as const).map((c) => html`<option value=${c} ?selected=${binding.transform_params.component === c}>${t[c]}</option>`)}
        </select></div>` : nothing}
      <button type="button" class="danger" @click=${() => this.removeBinding(index)}>${format(t.removeBinding, { index: nth, field: name })}</button>
      ${described === nothing ? nothing : html`<div id="${id}-problems" class="problem">
        ${this.lookupErrors.has(index) ? html`<p class="problem">${t.lookupNotJson}</p>` : nothing}
        ${problems.map((p) => html`<p class="problem">${p}</p>`)}</div>`}
    </div>`;
  }

  private fieldRow(field: FieldInfo) {
    const t = this.t;
    const mine = this.bindings.map((b, index) => ({ b, index })).filter(({ b }) => b.target_field_path === field.key);
    const standard = this.standard.get(field.key);
    const unbound = this.unbound.includes(field.key);
    return html`<div class="target-field" role="group" aria-label=${field.label}>
      <div><strong>${field.label}</strong> <code>${field.key}</code> <span class="muted">${field.field_type}</span>
        ${field.required || field.category === 'required' ? html`<span class="req" aria-hidden="true">*</span>` : nothing}</div>
      ${field.help_text ? html`<p class="hint">${field.help_text}</p>` : nothing}
      ${standard && mine.length === 0 ? html`<p class="hint">${format(t.standardMapping, { source: standard })}</p>` : nothing}
      ${unbound ? html`<p class="problem">${format(t.unboundRequired, { fields: field.key })}</p>` : nothing}
      ${mine.map(({ b, index }, nth) => this.bindingRow(b, index, field, nth + 1))}
      <div class="actions"><button type="button" ?disabled=${this.sources.length === 0} @click=${() => this.add(field)}>${format(t.addBinding, { field: field.label })}</button></div>
    </div>`;
  }

  render() {
    const t = this.t;
    const auto = this.fields.filter((f) => f.category === 'auto_filled');
    return html`${GROUPS.map(([category, label]) => {
      const fields = this.fields.filter((f) => f.category === category);
      return fields.length ? html`<h3>${t[label]}</h3>${fields.map((f) => this.fieldRow(f))}` : nothing;
    })}
    ${auto.length ? html`<h3>${t.categoryAuto}</h3><p class="hint">${auto.map((f) => f.label).join(', ')}</p>` : nothing}`;
  }
}
if (!customElements.get('console-forms-bindings')) customElements.define('console-forms-bindings', FormsBindings);
