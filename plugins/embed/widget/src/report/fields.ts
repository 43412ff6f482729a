// A v0 type's dynamic fields, rendered natively: each field labelled, marked
// required, its value read back in the type the server checks (numbers as
// numbers, a multiselect as a list) and checked before sending.
import { html, nothing } from 'lit';
import { live } from 'lit/directives/live.js';
import { format } from '../i18n.ts';
import type { DynamicField } from './api.ts';
import type { ReportStrings } from './strings.ts';

export type Values = Record<string, unknown>;

const optionsOf = (field: DynamicField) =>
  (field.options ?? []).map((o) => (typeof o === 'string' ? { value: o, label: o } : { value: o.value, label: o.label ?? o.value }));

export function renderField(field: DynamicField, values: Values, s: ReportStrings, onChange: () => void, invalid: Set<string>) {
  const id = `df-${field.key}`;
  const value = values[field.key];
  const set = (next: unknown) => {
    if (next === '' || next === undefined || (Array.isArray(next) && next.length === 0)) delete values[field.key];
    else values[field.key] = next;
    onChange();
  };
  const label = html`${field.label}${field.required ? html`<span class="req" aria-hidden="true"> *</span>` : nothing}`;
  const common = { required: Boolean(field.required), invalid: invalid.has(`dynamic_fields.${field.key}`) };
  switch (field.type) {
    case 'boolean':
      return html`<div class="field check"><input id=${id} type="checkbox" .checked=${live(value === true)}
        @change=${(e: Event) => set((e.target as HTMLInputElement).checked ? true : field.required ? undefined : false)}>
        <label for=${id}>${label}</label></div>`;
    case 'textarea':
      return html`<div class="field"><label for=${id}>${label}</label><textarea id=${id} rows="3" ?required=${common.required} aria-invalid=${common.invalid ? 'true' : 'false'}
        .value=${live(String(value ?? ''))} @input=${(e: Event) => set((e.target as HTMLTextAreaElement).value)}></textarea></div>`;
    case 'select':
      return html`<div class="field"><label for=${id}>${label}</label><select id=${id} ?required=${common.required} aria-invalid=${common.invalid ? 'true' : 'false'}
        @change=${(e: Event) => set((e.target as HTMLSelectElement).value)}>
        <option value="" ?selected=${value === undefined}>—</option>
        ${optionsOf(field).map((o) => html`<option value=${o.value} ?selected=${value === o.value}>${o.label}</option>`)}</select></div>`;
    case 'multiselect': {
      const chosen = new Set(Array.isArray(value) ? value as string[] : []);
      return html`<fieldset class="field group" aria-invalid=${common.invalid ? 'true' : 'false'}><legend>${label}</legend>
        ${optionsOf(field).map((o, i) => html`<div class="check"><input id=${`${id}-${i}`} type="checkbox" .checked=${live(chosen.has(o.value))}
          @change=${(e: Event) => { if ((e.target as HTMLInputElement).checked) chosen.add(o.value); else chosen.delete(o.value); set([...chosen]); }}>
          <label for=${`${id}-${i}`}>${o.label}</label></div>`)}</fieldset>`;
    }
    default: {
      const type = field.type === 'integer' || field.type === 'number' ? 'number' : field.type === 'date' ? 'date' : field.type === 'email' ? 'email' : 'text';
      return html`<div class="field"><label for=${id}>${label}</label><input id=${id} type=${type} step=${field.type === 'number' ? 'any' : field.type === 'integer' ? '1' : nothing}
        inputmode=${field.type === 'integer' ? 'numeric' : field.type === 'number' ? 'decimal' : nothing}
        ?required=${common.required} aria-invalid=${common.invalid ? 'true' : 'false'} .value=${live(String(value ?? ''))}
        @input=${(e: Event) => set(parse(field, (e.target as HTMLInputElement).value))}></div>`;
    }
  }
}

function parse(field: DynamicField, raw: string): unknown {
  if (raw.trim() === '') return undefined;
  if (field.type === 'number' || field.type === 'integer') {
    const n = Number(raw);
    return Number.isFinite(n) ? n : raw;
  }
  return raw;
}

/** The problems of the values before sending: `[{field: "dynamic_fields.<key>", message}]`. */
export function checkFields(fields: DynamicField[], values: Values, s: ReportStrings): { field: string; message: string }[] {
  const problems: { field: string; message: string }[] = [];
  for (const field of fields) {
    const value = values[field.key];
    const path = `dynamic_fields.${field.key}`;
    if (value === undefined) {
      if (field.required) problems.push({ field: path, message: format(s.missing, { field: field.label }) });
      continue;
    }
    if (field.type === 'number' && typeof value !== 'number') problems.push({ field: path, message: format(s.invalidNumber, { field: field.label }) });
    if (field.type === 'integer' && !Number.isInteger(value)) problems.push({ field: path, message: format(s.invalidInteger, { field: field.label }) });
    if (field.type === 'email' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(String(value))) problems.push({ field: path, message: format(s.invalidEmail, { field: field.label }) });
  }
  return problems;
}
