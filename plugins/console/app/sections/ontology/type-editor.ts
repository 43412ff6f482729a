// <console-ontology-type-editor>: a new entity type (POST
// /api/v1/ontology/entity-types) or, given `current`, its next version
// (PATCH /api/v1/ontology/entity-types/{code} with the whole definition: a
// new version only when something changed). JSON fields are checked here
// and their errors shown at the field; the API's refusals are shown by the
// client. Fires `saved` ({code, version}) or `cancel`.
import { html, nothing } from 'lit';
import { format } from '../../i18n.ts';
import { TenantSection } from '../../ui/tenant-section.ts';
import { ontologyStyles } from './common.ts';
import { ONTOLOGY_STRINGS, type OntologyStrings } from './strings.ts';
import type { EntityType } from './types.ts';

const EMPTY_PROPERTIES = '{\n  "type": "object",\n  "properties": {},\n  "required": []\n}';

const list = (text: string) => text.split(',').map((x) => x.trim()).filter(Boolean);

export class OntologyTypeEditor extends TenantSection<OntologyStrings> {
  static properties = { current: { attribute: false }, errors: { state: true }, busy: { state: true } };
  declare current: EntityType | null;
  declare errors: Record<string, string>;
  declare busy: boolean;
  static styles = ontologyStyles;
  protected strings = ONTOLOGY_STRINGS;

  constructor() {
    super();
    this.current = null;
    this.errors = {};
    this.busy = false;
  }

  protected contextChanged(): void {
    this.errors = {};
  }

  private parse(data: FormData, field: 'properties' | 'relationships', label: string): unknown {
    try {
      return JSON.parse(String(data.get(field) ?? ''));
    } catch (err) {
      this.errors = { ...this.errors, [field]: format(this.t.invalidJson, { field: label, message: (err as Error).message }) };
      return undefined;
    }
  }

  private async submit(event: Event): Promise<void> {
    event.preventDefault();
    const t = this.t;
    const form = event.target as HTMLFormElement;
    const data = new FormData(form);
    this.errors = {};
    const properties = this.parse(data, 'properties', t.propertiesField);
    const relationships = this.parse(data, 'relationships', t.relationshipsField);
    if (properties === undefined || relationships === undefined) {
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    const definition = {
      name: String(data.get('name') ?? '').trim(),
      description: String(data.get('description') ?? '').trim() || null,
      keys: list(String(data.get('keys') ?? '')),
      properties, relationships,
      carrier_types: list(String(data.get('carrier_types') ?? '')),
    };
    const api = this.context!.api;
    this.busy = true;
    try {
      const current = this.current;
      if (current) {
        const saved = await api.patch<EntityType>(`/api/v1/ontology/entity-types/${encodeURIComponent(current.code)}`, definition);
        const message = saved.current_version === current.current_version ? t.versionUnchanged : t.versionSaved;
        this.context!.announce(format(message, { code: saved.code, version: saved.current_version }));
        this.dispatchEvent(new CustomEvent('saved', { detail: { code: saved.code, version: saved.current_version } }));
      } else {
        const code = String(data.get('code') ?? '').trim();
        const saved = await api.post<EntityType>('/api/v1/ontology/entity-types', { code, ...definition });
        this.context!.announce(format(t.typeCreated, { code: saved.code }));
        this.dispatchEvent(new CustomEvent('saved', { detail: { code: saved.code, version: saved.current_version } }));
      }
    } catch { /* shown by the client */ } finally {
      this.busy = false;
    }
  }

  private field(name: 'properties' | 'relationships', label: string, hint: string, value: string) {
    const error = this.errors[name];
    return html`<div class="field">
      <label for=${`type-${name}`}>${label}</label>
      <textarea id=${`type-${name}`} name=${name} rows=${name === 'properties' ? 10 : 3} spellcheck="false"
        aria-invalid=${error ? 'true' : 'false'} aria-describedby=${`type-${name}-hint`} .value=${value}></textarea>
      <p id=${`type-${name}-hint`} class=${error ? 'hint error' : 'hint'}>${error ?? hint}</p>
    </div>`;
  }

  render() {
    const t = this.t;
    const current = this.current;
    const title = current ? format(t.newVersionTitle, { code: current.code }) : t.newTypeTitle;
    return html`<form aria-label=${title} @submit=${this.submit}>
      <h3>${title}</h3>
      ${current ? nothing : html`<div class="field">
        <label for="type-code">${t.code}<span class="req" aria-hidden="true">*</span></label>
        <input id="type-code" name="code" required pattern="[a-z][a-z0-9_]{0,62}" autocomplete="off" aria-describedby="type-code-hint">
        <p id="type-code-hint" class="hint">${t.codeHint}</p>
      </div>`}
      <div class="field">
        <label for="type-name">${t.name}<span class="req" aria-hidden="true">*</span></label>
        <input id="type-name" name="name" required maxlength="200" .value=${current?.name ?? ''}>
      </div>
      <div class="field">
        <label for="type-description">${t.description}</label>
        <input id="type-description" name="description" maxlength="5000" .value=${current?.description ?? ''}>
      </div>
      <div class="field">
        <label for="type-keys">${t.keysField}<span class="req" aria-hidden="true">*</span></label>
        <input id="type-keys" name="keys" required autocomplete="off" .value=${current?.keys.join(', ') ?? ''}>
      </div>
      ${this.field('properties', t.propertiesField, t.propertiesHint, current ? JSON.stringify(current.properties, null, 2) : EMPTY_PROPERTIES)}
      ${this.field('relationships', t.relationshipsField, t.relationshipsHint, JSON.stringify(current?.relationships ?? [], null, 2))}
      <div class="field">
        <label for="type-carriers">${t.carrierTypesField}</label>
        <input id="type-carriers" name="carrier_types" autocomplete="off" .value=${current?.carrier_types.join(', ') ?? ''}>
      </div>
      <div class="actions">
        <button type="submit" class="primary" ?disabled=${this.busy}>${current ? t.saveVersion : t.createType}</button>
        <button type="button" @click=${() => this.dispatchEvent(new CustomEvent('cancel'))}>${t.cancel}</button>
      </div>
    </form>`;
  }
}

if (!customElements.get('console-ontology-type-editor')) customElements.define('console-ontology-type-editor', OntologyTypeEditor);
