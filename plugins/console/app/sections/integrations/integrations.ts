// The Integrations section (admin): import an OpenAPI description from a URL
// or a file (a preview first, the dry run of POST
// /api/admin/integrations/openapi/import, then the import itself), the
// imported specs (sync, delete) and their functions, and calling a function
// through a form generated from its JSON Schema (POST
// /api/admin/functions/{name}/call), its answer shown. The credential is
// write-only: sent with the import, never read back.
import { css, html, nothing } from 'lit';
import { TenantSection } from '../../ui/tenant-section.ts';
import { live } from 'lit/directives/live.js';
import { format } from '../../i18n.ts';
import { confirmDialog } from '../../ui/confirm-dialog.ts';
import { formStyles } from '../../ui/form-styles.ts';
import { shared } from '../../ui/styles.ts';
import '../../ui/status-badge.ts';
import '../../ui/table.ts';
import '../../ui/json-schema-form.ts';
import type { JsonSchema } from '../../ui/json-schema-form.ts';
import type { Column } from '../../ui/table.ts';
import { FORM_STRINGS, INTEGRATIONS_STRINGS, type IntegrationsStrings } from './strings.ts';

interface Spec { id: string; name: string; title: string; base_url: string | null; function_count: number; status: 'active' | 'sync_failed' }
interface PreviewFunction { action: string; name: string; operation: string; description: string }
interface Problem { message?: string; operation?: string; name?: string }
interface ImportResult {
  dry_run: boolean; spec: { name: string; id?: string }; changes: { create: number; update: number; unchanged: number; remove: number };
  functions: PreviewFunction[]; warnings: Problem[]; conflicts: Problem[];
}
interface ImportedFunction { name: string; operation: string; description: string; status: string; json_schema: JsonSchema; parameters: Record<string, { location: string }> }
interface CallResult { status: number; ok: boolean; body: unknown; credential: string; hint?: string }

const AUTH_SCHEMES = ['apiKey', 'bearer', 'basic', 'oauth2'] as const;

export default class IntegrationsSection extends TenantSection<IntegrationsStrings> {
  static properties = {
    mode: { state: true }, preview: { state: true }, specs: { state: true }, spec: { state: true }, functions: { state: true },
    calling: { state: true }, result: { state: true }, busy: { state: true },
  };
  declare mode: 'url' | 'file';
  declare preview: ImportResult | null;
  declare specs: Spec[] | null;
  declare spec: Spec | null;
  declare functions: ImportedFunction[] | null;
  declare calling: ImportedFunction | null;
  /** The form's schema of the function being called (made once per opening: a new schema empties the form). */
  private callingSchema: JsonSchema = {};
  declare result: CallResult | null;
  declare busy: boolean;
  /** The body the preview was made of: the import sends exactly it (any edit of the form drops the preview). */
  private pending: Record<string, unknown> | null = null;

  static styles = [shared, formStyles, css`
    section { margin-bottom: 1.5rem; }
    h3 { font-size: 1rem; margin: 1.25rem 0 0.5rem; }
    .panel { border: 1px solid var(--border); border-radius: 8px; padding: 1rem; background: var(--surface); margin-top: 1rem; }
    ul.problems { margin: 0.25rem 0; padding-left: 1.25rem; }
    .row-actions { display: flex; flex-wrap: wrap; gap: 0.4rem; }
    .row-actions button { padding: 0.2rem 0.6rem; font-size: 0.875rem; }
    h2[tabindex], h3[tabindex] { outline-offset: 2px; }
  `];

  protected strings = INTEGRATIONS_STRINGS;

  constructor() {
    super();
    this.mode = 'url';
    this.preview = null;
    this.specs = null;
    this.spec = null;
    this.functions = null;
    this.calling = null;
    this.result = null;
    this.busy = false;
  }

  protected contextChanged(): void {
    Object.assign(this, { preview: null, spec: null, functions: null, calling: null, result: null });
    this.pending = null;
    void this.loadSpecs();
  }

  private async loadSpecs(): Promise<void> {
    const api = this.context?.api;
    if (!api) return;
    this.specs = (await api.get<{ items: Spec[] }>('/api/admin/integrations/specs', { query: { limit: 500 } }).catch(() => null))?.items ?? [];
  }

  private async focusOn(selector: string): Promise<void> {
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>(selector)?.focus();
  }

  /** The import's body from the form; null (and the field flagged) when the file is missing. */
  private async bodyOf(form: HTMLFormElement): Promise<Record<string, unknown> | null> {
    const data = new FormData(form);
    const text = (key: string) => String(data.get(key) ?? '').trim();
    const body: Record<string, unknown> = { name: text('name') };
    if (this.mode === 'url') body.source = text('source');
    else {
      const input = form.querySelector<HTMLInputElement>('#import-file')!;
      const file = input.files?.[0];
      if (!file) {
        input.setCustomValidity(this.t.noFile);
        input.reportValidity();
        return null;
      }
      body.spec = await file.text();
    }
    if (text('base_url')) body.base_url = text('base_url');
    if (text('auth_scheme')) body.auth_scheme = text('auth_scheme');
    if (text('auth_value')) body.auth_value = String(data.get('auth_value'));
    return body;
  }

  private async previewImport(event: Event): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    if (!form.reportValidity()) return;
    const body = await this.bodyOf(form);
    const api = this.context?.api;
    if (!body || !api) return;
    this.busy = true;
    try {
      this.preview = await api.post<ImportResult>('/api/admin/integrations/openapi/import', { ...body, dry_run: true });
      this.pending = body;
      this.context!.announce(format(this.t.previewed, { count: this.preview.functions.length }));
      await this.focusOn('#preview-title');
    } catch { /* the shell shows the error */ } finally {
      this.busy = false;
    }
  }

  private async performImport(): Promise<void> {
    const api = this.context?.api;
    if (!this.pending || !api) return;
    this.busy = true;
    try {
      const done = await api.post<ImportResult>('/api/admin/integrations/openapi/import', { ...this.pending, dry_run: false });
      this.pending = null;
      this.preview = null;
      const form = this.renderRoot.querySelector<HTMLFormElement>('#import-form');
      form?.reset();
      this.mode = 'url';
      await this.loadSpecs();
      this.context!.announce(format(this.t.imported, { name: done.spec.name, count: done.functions.length }));
      const spec = this.specs?.find((s) => s.name === done.spec.name);
      if (spec) await this.showFunctions(spec);
    } catch { /* shown by the shell */ } finally {
      this.busy = false;
    }
  }

  private formChanged(event: Event): void {
    const target = event.target as HTMLInputElement;
    if (target.type === 'file') target.setCustomValidity('');
    this.preview = null;
    this.pending = null;
  }

  private async showFunctions(spec: Spec): Promise<void> {
    const api = this.context?.api;
    if (!api) return;
    Object.assign(this, { spec, calling: null, result: null, functions: null });
    const listed = await api.get<{ items: ImportedFunction[] }>('/api/admin/integrations/functions', { query: { source: spec.name, limit: 500 } }).catch(() => null);
    this.functions = listed?.items ?? [];
    await this.focusOn('#functions-title');
  }

  private async sync(spec: Spec): Promise<void> {
    const api = this.context?.api;
    if (!api) return;
    try {
      const synced = await api.post<{ status: string }>(`/api/admin/integrations/specs/${spec.id}/sync`);
      this.context!.announce(format(this.t.synced, { name: spec.name, status: synced.status }));
    } catch { /* shown */ }
    await this.loadSpecs();
  }

  private async removeSpec(spec: Spec): Promise<void> {
    const t = this.t;
    if (!(await confirmDialog({ message: format(t.removeConfirm, { name: spec.name }), confirmLabel: t.confirmDelete, cancelLabel: t.cancel }))) return;
    try {
      await this.context!.api.delete(`/api/admin/integrations/specs/${spec.id}`);
      if (this.spec?.id === spec.id) Object.assign(this, { spec: null, functions: null, calling: null, result: null });
      this.context!.announce(format(t.removed, { name: spec.name }));
    } catch { /* shown */ }
    await this.loadSpecs();
  }

  private async openCall(fn: ImportedFunction): Promise<void> {
    const full = await this.context!.api.get<ImportedFunction>(`/api/admin/integrations/functions/${encodeURIComponent(fn.name)}`).catch(() => null);
    if (!full) return;
    this.result = null;
    this.callingSchema = this.callSchema(full);
    this.calling = full;
    await this.focusOn('#call-title');
  }

  /** The function's schema, each argument's hint naming where it goes (path, query, header, body). */
  private callSchema(fn: ImportedFunction): JsonSchema {
    const properties = Object.fromEntries(Object.entries(fn.json_schema.properties ?? {}).map(([name, schema]) => {
      const location = fn.parameters[name]?.location;
      return [name, { ...schema, description: [location, schema.description].filter(Boolean).join(' · ') }];
    }));
    return { ...fn.json_schema, properties };
  }

  private async call(fn: ImportedFunction, args: unknown): Promise<void> {
    this.busy = true;
    try {
      const answer = await this.context!.api.post<{ result: CallResult }>(`/api/admin/functions/${encodeURIComponent(fn.name)}/call`, { arguments: args ?? {} });
      this.result = answer.result;
      this.context!.announce(format(this.t.answered, { name: fn.name, status: answer.result.status }));
    } catch { /* shown */ } finally {
      this.busy = false;
    }
  }

  private renderImport() {
    const t = this.t;
    return html`<section aria-labelledby="import-title">
      <h2 id="import-title">${t.importTitle}</h2>
      <p class="muted">${t.importIntro}</p>
      <form id="import-form" novalidate @submit=${(e: Event) => this.previewImport(e)} @input=${(e: Event) => this.formChanged(e)}>
        <fieldset><legend>${t.from}</legend><div class="inline">
          <label class="check"><input type="radio" name="from" value="url" .checked=${live(this.mode === 'url')} @change=${() => { this.mode = 'url'; }}>${t.fromUrl}</label>
          <label class="check"><input type="radio" name="from" value="file" .checked=${live(this.mode === 'file')} @change=${() => { this.mode = 'file'; }}>${t.fromFile}</label>
        </div></fieldset>
        ${this.mode === 'url'
          ? html`<div class="field"><label for="import-source">${t.url}<span class="req" aria-hidden="true">*</span></label>
              <input id="import-source" name="source" type="url" required placeholder="https://"></div>`
          : html`<div class="field"><label for="import-file">${t.file}<span class="req" aria-hidden="true">*</span></label>
              <input id="import-file" name="file" type="file" required accept=".json,.yaml,.yml,application/json,application/yaml,text/yaml"></div>`}
        <div class="field"><label for="import-name">${t.name}<span class="req" aria-hidden="true">*</span></label>
          <p class="hint" id="import-name-hint">${t.nameHint}</p>
          <input id="import-name" name="name" required maxlength="64" pattern="[A-Za-z0-9][A-Za-z0-9_.\\-]*" aria-describedby="import-name-hint" autocomplete="off"></div>
        <div class="field"><label for="import-base">${t.baseUrl}</label>
          <p class="hint" id="import-base-hint">${t.baseUrlHint}</p>
          <input id="import-base" name="base_url" type="url" aria-describedby="import-base-hint"></div>
        <div class="field"><label for="import-auth">${t.authScheme}</label>
          <select id="import-auth" name="auth_scheme">
            <option value="">${t.authInferred}</option><option value="none">${t.authNone}</option>
            ${AUTH_SCHEMES.map((scheme) => html`<option value=${scheme}>${scheme}</option>`)}
          </select></div>
        <div class="field"><label for="import-secret">${t.authValue}</label>
          <p class="hint" id="import-secret-hint">${t.authValueHint}</p>
          <input id="import-secret" name="auth_value" type="password" autocomplete="off" aria-describedby="import-secret-hint"></div>
        <div class="actions"><button type="submit" class="primary" ?disabled=${this.busy}>${t.preview}</button></div>
      </form>
      ${this.renderPreview()}
    </section>`;
  }

  private renderPreview() {
    const p = this.preview;
    if (!p) return nothing;
    const t = this.t;
    const columns: Column<PreviewFunction>[] = [
      { label: t.action, cell: (f) => html`<console-status tone=${f.action === 'remove' ? 'warn' : f.action === 'unchanged' ? 'neutral' : 'ok'}>${f.action}</console-status>` },
      { label: t.functionName, cell: (f) => f.name },
      { label: t.operation, cell: (f) => f.operation },
      { label: t.description, cell: (f) => f.description },
    ];
    const problems = (items: Problem[]) => html`<ul class="problems">${items.map((w) => html`<li>${[w.operation ?? w.name, w.message].filter(Boolean).join(': ')}</li>`)}</ul>`;
    return html`<div class="panel">
      <h3 id="preview-title" tabindex="-1">${format(t.previewTitle, { name: p.spec.name })}</h3>
      <p>${format(t.changes, p.changes)}</p>
      <console-table tabindex="0" role="group" aria-label=${t.functions} .caption=${t.functions} .empty=${t.noFunctions} .columns=${columns} .rows=${p.functions}></console-table>
      ${p.warnings.length ? html`<h4>${t.warnings}</h4>${problems(p.warnings)}` : nothing}
      ${p.conflicts.length ? html`<h4>${t.conflicts}</h4>${problems(p.conflicts)}` : nothing}
      <div class="actions"><button type="button" class="primary" ?disabled=${this.busy || p.conflicts.length > 0} @click=${() => this.performImport()}>${t.import}</button></div>
    </div>`;
  }

  private renderSpecs() {
    const t = this.t;
    const columns: Column<Spec>[] = [
      { label: t.name, cell: (s) => s.name },
      { label: t.title, cell: (s) => s.title },
      { label: t.server, cell: (s) => s.base_url ?? '' },
      { label: t.functions, cell: (s) => s.function_count, numeric: true },
      { label: t.status, cell: (s) => html`<console-status tone=${s.status === 'active' ? 'ok' : 'error'}>${t[s.status]}</console-status>` },
      {
        label: t.actions,
        cell: (s) => html`<div class="row-actions">
          <button type="button" @click=${() => this.showFunctions(s)}>${format(t.showFunctions, { name: s.name })}</button>
          <button type="button" @click=${() => this.sync(s)}>${format(t.sync, { name: s.name })}</button>
          <button type="button" class="danger" @click=${() => this.removeSpec(s)}>${format(t.remove, { name: s.name })}</button></div>`,
      },
    ];
    return html`<section aria-labelledby="specs-title">
      <h2 id="specs-title">${t.specs}</h2>
      ${this.specs ? html`<console-table .caption=${t.specs} .empty=${t.noSpecs} .columns=${columns} .rows=${this.specs}></console-table>` : html`<p>${t.loading}</p>`}
    </section>`;
  }

  private renderFunctions() {
    const spec = this.spec;
    if (!spec) return nothing;
    const t = this.t;
    const columns: Column<ImportedFunction>[] = [
      { label: t.functionName, cell: (f) => f.name },
      { label: t.operation, cell: (f) => f.operation },
      { label: t.description, cell: (f) => f.description },
      { label: t.actions, cell: (f) => html`<div class="row-actions"><button type="button" @click=${() => this.openCall(f)}>${format(t.call, { name: f.name })}</button></div>` },
    ];
    return html`<section aria-labelledby="functions-title">
      <h2 id="functions-title" tabindex="-1">${format(t.functionsOf, { name: spec.name })}</h2>
      ${this.functions
        ? html`<console-table .caption=${format(t.functionsOf, { name: spec.name })} .empty=${t.noFunctions} .columns=${columns} .rows=${this.functions}></console-table>`
        : html`<p>${t.loading}</p>`}
      ${this.renderCall()}
    </section>`;
  }

  private renderCall() {
    const fn = this.calling;
    if (!fn) return nothing;
    const t = this.t;
    const locale = this.context?.locale ?? 'en';
    const r = this.result;
    return html`<div class="panel">
      <h3 id="call-title" tabindex="-1">${format(t.callTitle, { name: fn.name })}</h3>
      <p class="muted">${fn.operation}${fn.description ? html` · ${fn.description}` : nothing}</p>
      <console-schema-form .schema=${this.callingSchema} .strings=${FORM_STRINGS[locale]} submitLabel=${t.send} ?busy=${this.busy}
        @schema-submit=${(e: CustomEvent<{ value: unknown }>) => this.call(fn, e.detail.value)}></console-schema-form>
      ${r ? html`<h4>${t.response}</h4>
        <p><console-status tone=${r.ok ? 'ok' : 'error'}>${r.status}</console-status>
          <span class="muted">${format(t.credentialUsed, { credential: r.credential })}</span></p>
        ${r.hint ? html`<p>${r.hint}</p>` : nothing}
        <pre tabindex="0" role="region" aria-label=${t.response}>${typeof r.body === 'string' ? r.body : JSON.stringify(r.body, null, 2)}</pre>` : nothing}
      <div class="actions"><button type="button" @click=${() => { this.calling = null; this.result = null; }}>${t.close}</button></div>
    </div>`;
  }

  render() {
    return html`${this.renderImport()}${this.renderSpecs()}${this.renderFunctions()}`;
  }
}
