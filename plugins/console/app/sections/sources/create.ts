// <console-sources-create>: a new source from a pattern. The pattern's
// configuration JSON Schema becomes the form (ui/json-schema-form.ts), with
// the source's name first and the pattern's credential fields as write-only
// password inputs: sent once in the create call (POST /api/v1/sources, as
// credential_values), then emptied, never read back. Fires `source-created`.
import { LitElement, html, nothing } from 'lit';
import { ApiError } from '../../client.ts';
import { format } from '../../i18n.ts';
import type { SectionContext } from '../contract.ts';
import '../../ui/json-schema-form.ts';
import type { JsonSchema } from '../../ui/json-schema-form.ts';
import { sourcesStyles } from './styles.ts';
import { FORM_STRINGS, SOURCES_STRINGS } from './strings.ts';
import type { Pattern, Source } from './types.ts';

/** The form's own field for the source's name (a key no pattern uses). */
const NAME_KEY = '__source_name';

export class SourcesCreate extends LitElement {
  static properties = {
    context: { attribute: false }, patterns: { attribute: false },
    patternId: { state: true }, schema: { state: true }, busy: { state: true }, error: { state: true },
  };
  declare context: SectionContext;
  declare patterns: Pattern[];
  declare patternId: string;
  declare schema: JsonSchema | null;
  declare busy: boolean;
  declare error: string;
  static styles = sourcesStyles;

  constructor() {
    super();
    this.patterns = [];
    this.patternId = '';
    this.schema = null;
    this.busy = false;
    this.error = '';
  }

  private get t() { return SOURCES_STRINGS[this.context.locale]; }
  private get pattern(): Pattern | undefined { return this.patterns.find((p) => p.id === this.patternId); }

  protected willUpdate(changed: Map<PropertyKey, unknown>): void {
    if (changed.has('patterns') && !this.pattern) this.patternId = this.patterns.find((p) => p.id === 'csv')?.id ?? this.patterns[0]?.id ?? '';
    if (changed.has('patterns') || changed.has('patternId') || (changed.has('context') && this.schema)) this.schema = this.formSchema();
  }

  /** The pattern's schema with the name first, defaults told in the hints, credential fields write-only. */
  private formSchema(): JsonSchema | null {
    const pattern = this.pattern;
    if (!pattern) return null;
    const t = this.t;
    const properties: Record<string, JsonSchema> = { [NAME_KEY]: { type: 'string', title: t.name, description: t.nameHint } };
    for (const [key, field] of Object.entries(pattern.config_schema.properties ?? {})) {
      if (pattern.credential_fields.includes(key)) {
        properties[key] = { type: 'string', title: key, writeOnly: true, description: [field.description, t.credentialHint].filter(Boolean).join(' ') };
        continue;
      }
      const told = field.default === undefined ? undefined : format(t.defaultIs, { value: JSON.stringify(field.default) });
      properties[key] = { ...field, description: [field.description, told].filter(Boolean).join(' ') || undefined };
    }
    return { type: 'object', properties, required: [NAME_KEY, ...(pattern.config_schema.required ?? [])] };
  }

  private async create(value: Record<string, unknown>): Promise<void> {
    const pattern = this.pattern;
    if (!pattern) return;
    const { [NAME_KEY]: name, ...rest } = value;
    const config: Record<string, unknown> = {};
    const credentials: Record<string, string> = {};
    for (const [key, field] of Object.entries(rest)) {
      if (pattern.credential_fields.includes(key)) credentials[key] = String(field);
      else config[key] = field;
    }
    const body: Record<string, unknown> = { name, pattern_id: pattern.id, source_config: config };
    this.busy = true;
    this.error = '';
    try {
      let source: Source;
      if (Object.keys(credentials).length === 0) {
        source = await this.context.api.post<Source>('/api/v1/sources', body);
      } else {
        // The vault (the default mode) names the new credential; the legacy inline mode refuses a name.
        source = await this.context.api.post<Source>('/api/v1/sources', { ...body, credential_values: credentials, credential_name: `${String(name)}_${pattern.id}` }, { quiet: true })
          .catch((err: unknown) => {
            if (err instanceof ApiError && err.code === 'CREDENTIAL_REF_UNAVAILABLE') return this.context.api.post<Source>('/api/v1/sources', { ...body, credential_values: credentials });
            if (err instanceof ApiError) this.error = err.message;
            throw err;
          });
      }
      this.schema = this.formSchema();
      this.context.announce(format(this.t.created, { name: source.name }));
      this.dispatchEvent(new CustomEvent('source-created', { detail: { source }, bubbles: true, composed: true }));
    } catch { /* shown by the shell, or above the form */ } finally {
      this.busy = false;
    }
  }

  render() {
    const t = this.t;
    return html`<section class="panel" aria-labelledby="new-source-heading">
      <h3 id="new-source-heading">${t.newSource}</h3>
      <p>${t.newIntro}</p>
      <div class="field">
        <label for="pattern">${t.choosePattern}</label>
        <select id="pattern" aria-describedby="pattern-hint" @change=${(e: Event) => { this.patternId = (e.target as HTMLSelectElement).value; }}>
          ${this.patterns.map((p) => html`<option value=${p.id} ?selected=${p.id === this.patternId}>${p.name}</option>`)}
        </select>
        <p class="hint" id="pattern-hint">${this.pattern?.description ?? ''}</p>
      </div>
      ${this.error ? html`<p role="alert" class="error-text">${this.error}</p>` : nothing}
      ${this.schema ? html`<console-schema-form .schema=${this.schema} .strings=${FORM_STRINGS[this.context.locale]} submitLabel=${t.create} ?busy=${this.busy}
        @schema-submit=${(e: CustomEvent<{ value: Record<string, unknown> }>) => { e.stopPropagation(); void this.create(e.detail.value); }}></console-schema-form>` : nothing}
    </section>`;
  }
}
if (!customElements.get('console-sources-create')) customElements.define('console-sources-create', SourcesCreate);
