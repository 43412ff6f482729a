// <console-schema-form>: a form generated from a JSON Schema object (a
// function's parameters): string, number, integer, boolean, enum, nested
// object and array fields, each labelled (title or name), with its
// description as a hint and a marker on required ones; anything else (oneOf,
// free-form) is a JSON text area. Write-only fields (writeOnly, or format
// password) are password inputs, emptied after each submit. On submit it
// checks the fields and fires `schema-submit` with {value}: the arguments,
// optional empty fields left out.
import { LitElement, css, html, nothing, type TemplateResult } from 'lit';
import { format } from '../i18n.ts';
import { formStyles } from './form-styles.ts';
import { shared } from './styles.ts';

export interface JsonSchema {
  type?: string | string[];
  title?: string;
  description?: string;
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  format?: string;
  writeOnly?: boolean;
  minimum?: number;
  maximum?: number;
}

export interface SchemaFormStrings {
  /** The note before the fields: what the marker means. */
  requiredNote: string;
  /** `{name}`: the array's label. */
  add: string;
  /** `{name}`: the item's label. */
  remove: string;
  none: string;
  json: string;
  /** `{name}`, `{message}`. */
  invalidJson: string;
  noParameters: string;
}

type Kind = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'object' | 'array' | 'json';
type Path = (string | number)[];

export function kindOf(schema: JsonSchema): Kind {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return 'enum';
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'object' && schema.properties) return 'object';
  if (type === 'array' && schema.items) return 'array';
  if (type === 'string' || type === 'number' || type === 'integer' || type === 'boolean') return type;
  return 'json';
}

const secret = (schema: JsonSchema) => schema.writeOnly === true || schema.format === 'password';

class InvalidJson extends Error {}

export class SchemaForm extends LitElement {
  static properties = {
    schema: { attribute: false }, strings: { attribute: false }, submitLabel: {}, busy: { type: Boolean }, data: { state: true },
  };
  declare schema: JsonSchema;
  declare strings: SchemaFormStrings;
  declare submitLabel: string;
  declare busy: boolean;
  declare data: Record<string, unknown>;

  static styles = [shared, formStyles, css`
    fieldset fieldset { background: var(--bg); }
    .item { display: flex; gap: 0.5rem; align-items: end; flex-wrap: wrap; }
    .item .field { flex: 1 1 12rem; }
  `];

  constructor() {
    super();
    this.schema = { type: 'object', properties: {} };
    this.submitLabel = 'Submit';
    this.busy = false;
    this.data = {};
  }

  protected willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('schema')) this.data = {};
  }

  private read(path: Path): unknown {
    let node: unknown = this.data;
    for (const key of path) node = node == null ? undefined : (node as Record<string | number, unknown>)[key];
    return node;
  }

  private write(path: Path, value: unknown): void {
    const root = structuredClone(this.data);
    let node = root as Record<string | number, unknown>;
    path.slice(0, -1).forEach((key, i) => {
      if (node[key] == null) node[key] = typeof path[i + 1] === 'number' ? [] : {};
      node = node[key] as Record<string | number, unknown>;
    });
    node[path[path.length - 1]] = value;
    this.data = root;
  }

  private removeItem(path: Path, index: number): void {
    const items = [...((this.read(path) as unknown[] | undefined) ?? [])];
    items.splice(index, 1);
    this.write(path, items);
  }

  private fieldId(path: Path): string { return `f-${path.map((p) => String(p).replace(/[^A-Za-z0-9_-]/g, '_')).join('--')}`; }

  private labelOf(schema: JsonSchema, name: string): string { return schema.title || name; }

  private marker(required: boolean) {
    return required ? html`<span class="req" aria-hidden="true">*</span>` : nothing;
  }

  private hint(schema: JsonSchema, id: string) {
    return schema.description ? html`<p class="hint" id=${`${id}-hint`}>${schema.description}</p>` : nothing;
  }

  private field(schema: JsonSchema, path: Path, label: string, required: boolean): TemplateResult {
    const kind = kindOf(schema);
    const id = this.fieldId(path);
    const described = schema.description ? `${id}-hint` : nothing;
    const value = this.read(path);
    switch (kind) {
      case 'object': {
        const props = Object.entries(schema.properties ?? {});
        return html`<fieldset><legend>${label}${this.marker(required)}</legend>${this.hint(schema, id)}
          ${props.map(([name, sub]) => this.field(sub, [...path, name], this.labelOf(sub, name), required && (schema.required ?? []).includes(name)))}</fieldset>`;
      }
      case 'array': {
        const items = (Array.isArray(value) ? value : []) as unknown[];
        const itemSchema = schema.items!;
        return html`<fieldset><legend>${label}${this.marker(required)}</legend>${this.hint(schema, id)}
          ${items.map((_, i) => {
            const itemLabel = `${label} ${i + 1}`;
            return html`<div class="item">${this.field(itemSchema, [...path, i], itemLabel, true)}
              <button type="button" class="danger" @click=${() => this.removeItem(path, i)}>${format(this.strings.remove, { name: itemLabel })}</button></div>`;
          })}
          <div><button type="button" @click=${() => this.write([...path, items.length], kindOf(itemSchema) === 'object' ? {} : kindOf(itemSchema) === 'array' ? [] : '')}>${format(this.strings.add, { name: label })}</button></div>
        </fieldset>`;
      }
      case 'boolean':
        return html`<div class="field"><label class="check"><input id=${id} type="checkbox" aria-describedby=${described}
          .checked=${value === true} @change=${(e: Event) => this.write(path, (e.target as HTMLInputElement).checked)}>${label}${this.marker(required)}</label>${this.hint(schema, id)}</div>`;
      case 'enum': {
        const options = schema.enum!;
        const index = options.findIndex((o) => o === value);
        return html`<div class="field"><label for=${id}>${label}${this.marker(required)}</label>${this.hint(schema, id)}
          <select id=${id} ?required=${required} aria-describedby=${described}
            @change=${(e: Event) => { const i = (e.target as HTMLSelectElement).selectedIndex - 1; this.write(path, i < 0 ? undefined : options[i]); }}>
            <option value="" ?selected=${index < 0}>${this.strings.none}</option>
            ${options.map((o, i) => html`<option value=${String(i)} ?selected=${i === index}>${String(o)}</option>`)}
          </select></div>`;
      }
      case 'json':
        return html`<div class="field"><label for=${id}>${label}${this.marker(required)} <span class="muted">(${this.strings.json})</span></label>${this.hint(schema, id)}
          <textarea id=${id} ?required=${required} aria-describedby=${described} .value=${String(value ?? '')}
            @input=${(e: Event) => { (e.target as HTMLTextAreaElement).setCustomValidity(''); this.write(path, (e.target as HTMLTextAreaElement).value); }}></textarea></div>`;
      default: {
        const numeric = kind === 'number' || kind === 'integer';
        return html`<div class="field"><label for=${id}>${label}${this.marker(required)}</label>${this.hint(schema, id)}
          <input id=${id} type=${secret(schema) ? 'password' : numeric ? 'number' : 'text'} autocomplete="off"
            step=${kind === 'integer' ? '1' : numeric ? 'any' : nothing} min=${schema.minimum ?? nothing} max=${schema.maximum ?? nothing}
            ?required=${required} aria-describedby=${described} .value=${String(value ?? '')}
            @input=${(e: Event) => this.write(path, (e.target as HTMLInputElement).value)}></div>`;
      }
    }
  }

  /** The arguments the fields hold, per the schema: empty optional fields left out. */
  private collect(schema: JsonSchema, value: unknown, path: Path, required: boolean): unknown {
    switch (kindOf(schema)) {
      case 'object': {
        const out: Record<string, unknown> = {};
        for (const [name, sub] of Object.entries(schema.properties ?? {})) {
          const v = this.collect(sub, (value as Record<string, unknown> | undefined)?.[name], [...path, name], (schema.required ?? []).includes(name));
          if (v !== undefined) out[name] = v;
        }
        return Object.keys(out).length > 0 || required ? out : undefined;
      }
      case 'array': {
        const items = (Array.isArray(value) ? value : []).map((v, i) => this.collect(schema.items!, v, [...path, i], true)).filter((v) => v !== undefined);
        return items.length > 0 || required ? items : undefined;
      }
      case 'boolean': return value === undefined || value === '' ? (required ? false : undefined) : value;
      case 'number': case 'integer': return value === undefined || value === '' ? undefined : Number(value);
      case 'json': {
        if (value === undefined || value === '') return undefined;
        try {
          return JSON.parse(String(value));
        } catch (err) {
          const area = this.renderRoot.querySelector<HTMLTextAreaElement>(`#${this.fieldId(path)}`);
          area?.setCustomValidity(format(this.strings.invalidJson, { name: String(path.at(-1) ?? ''), message: (err as Error).message }));
          throw new InvalidJson();
        }
      }
      default: return value === undefined || value === '' ? undefined : value;
    }
  }

  private submit(event: Event): void {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    if (!form.reportValidity()) return;
    let value: unknown;
    try {
      value = this.collect(this.schema, this.data, [], true);
    } catch (err) {
      if (err instanceof InvalidJson) { form.reportValidity(); return; }
      throw err;
    }
    this.forgetSecrets(this.schema, []);
    this.dispatchEvent(new CustomEvent('schema-submit', { detail: { value }, bubbles: true, composed: true }));
  }

  /** Write-only values leave the form once sent. */
  private forgetSecrets(schema: JsonSchema, path: Path): void {
    for (const [name, sub] of Object.entries(schema.properties ?? {})) {
      if (secret(sub) && this.read([...path, name]) !== undefined) this.write([...path, name], '');
      else if (kindOf(sub) === 'object') this.forgetSecrets(sub, [...path, name]);
    }
  }

  render() {
    const props = Object.entries(this.schema.properties ?? {});
    const required = this.schema.required ?? [];
    return html`<form novalidate @submit=${(e: Event) => this.submit(e)}>
      ${props.length === 0 ? html`<p class="muted">${this.strings.noParameters}</p>` : nothing}
      ${required.length > 0 ? html`<p class="hint">${this.strings.requiredNote}</p>` : nothing}
      ${props.map(([name, sub]) => this.field(sub, [name], this.labelOf(sub, name), required.includes(name)))}
      <div class="actions"><button type="submit" class="primary" ?disabled=${this.busy}>${this.submitLabel}</button></div>
    </form>`;
  }
}
if (!customElements.get('console-schema-form')) customElements.define('console-schema-form', SchemaForm);
