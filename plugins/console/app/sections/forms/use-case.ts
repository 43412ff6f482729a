// <console-forms-use-case>: a use case created or changed (POST
// /api/admin/forms/use-cases, PUT .../{id}, with its bindings in the same
// request): its form and version, target and target settings (the target's
// config schema, GET /api/admin/forms/targets), access; its bindings
// (bindings.ts) against the target's fields for those settings (GET
// .../targets/{model}/fields?config=) and its standard mappings. The API's
// refusals are shown where they belong: a binding's problem at the binding,
// a required target field nothing feeds at the field and above Save. A saved
// use case has a hydration preview (POST .../{id}/preview: validated,
// hydrated and rolled back).
import { html, nothing } from 'lit';
import { format } from '../../i18n.ts';
import type { SectionContext } from '../contract.ts';
import { TenantSection } from '../../ui/tenant-section.ts';
import './bindings.ts';
import { openEvent } from './open.ts';
import { FORMS_STRINGS, type FormsStrings } from './strings.ts';
import { formsStyles } from './styles.ts';
import { formFieldPaths, type Binding, type Definition, type FieldInfo, type FormSchema, type Paged, type Target, type UseCase, type VersionSummary } from './types.ts';

interface Draft { name: string; definitionId: string; version: number | 'latest'; model: string; config: Record<string, unknown>; access: 'public' | 'authenticated'; active: boolean }
type Refusal = { statusCode?: number; code?: string; message?: string; problems?: string[]; fields?: string[]; errors?: { path: string; message: string }[] };

const failed = (body: unknown): body is Refusal => typeof (body as Refusal)?.statusCode === 'number' && (body as Refusal).statusCode! >= 400;

export class FormsUseCase extends TenantSection<FormsStrings> {
  static properties = {
    ...TenantSection.properties, useCaseId: { attribute: false },
    draft: { state: true }, definitions: { state: true }, targets: { state: true }, versions: { state: true }, sources: { state: true },
    fields: { state: true }, standard: { state: true }, bindings: { state: true }, problems: { state: true }, unbound: { state: true },
    refusal: { state: true }, busy: { state: true }, savedId: { state: true }, hydration: { state: true },
  };
  declare useCaseId: string | null;
  declare draft: Draft | null;
  declare definitions: Definition[];
  declare targets: Target[];
  declare versions: VersionSummary[];
  declare sources: { path: string; label: string }[];
  declare fields: FieldInfo[];
  declare standard: Map<string, string>;
  declare bindings: Binding[];
  declare problems: Map<number, string[]>;
  declare unbound: string[];
  declare refusal: string[] | null;
  declare busy: boolean;
  declare savedId: string | null;
  declare hydration: { ok: boolean; lines: string[]; object?: unknown } | null;
  static styles = formsStyles;
  protected strings = FORMS_STRINGS;

  constructor() {
    super();
    this.draft = null;
    this.definitions = [];
    this.targets = [];
    this.versions = [];
    this.sources = [];
    this.fields = [];
    this.standard = new Map();
    this.bindings = [];
    this.problems = new Map();
    this.unbound = [];
    this.refusal = null;
    this.busy = false;
    this.savedId = null;
    this.hydration = null;
  }

  protected contextChanged(context: SectionContext): void {
    void this.load(context);
  }

  private async load(context: SectionContext): Promise<void> {
    const [definitions, targets] = await Promise.all([
      context.api.get<Paged<Definition>>('/api/admin/forms/definitions', { query: { limit: 500 } }).catch(() => null),
      context.api.get<{ items: Target[] }>('/api/admin/forms/targets').catch(() => null),
    ]);
    this.definitions = definitions?.items ?? [];
    this.targets = targets?.items ?? [];
    this.savedId = this.useCaseId;
    if (this.useCaseId) {
      const [useCase, bindings] = await Promise.all([
        context.api.get<UseCase>(`/api/admin/forms/use-cases/${this.useCaseId}`),
        context.api.get<{ bindings: Binding[] }>(`/api/admin/forms/use-cases/${this.useCaseId}/bindings`),
      ]);
      this.bindings = bindings.bindings;
      this.draft = { name: useCase.name, definitionId: useCase.form_definition_id, version: useCase.form_version, model: useCase.target_model, config: useCase.target_config, access: useCase.access, active: useCase.active };
    } else {
      const target = this.targets[0];
      this.draft = { name: '', definitionId: this.definitions[0]?.id ?? '', version: 'latest', model: target?.model ?? '', config: this.defaults(target), access: 'public', active: true };
    }
    await Promise.all([this.loadForm(), this.loadFields()]);
  }

  private defaults(target: Target | undefined): Record<string, unknown> {
    return Object.fromEntries((target?.config_schema ?? []).filter((item) => item.default !== null && item.default !== undefined).map((item) => [item.key, item.default]));
  }

  private get target(): Target | undefined { return this.targets.find((t) => t.model === this.draft?.model); }

  /** The chosen form version's data fields: what a binding's source may be. */
  private async loadForm(): Promise<void> {
    const draft = this.draft;
    if (!draft?.definitionId) { this.sources = []; return; }
    const base = `/api/admin/forms/definitions/${draft.definitionId}`;
    const versions = await this.context!.api.get<{ items: VersionSummary[] }>(`${base}/versions`).catch(() => null);
    this.versions = versions?.items ?? [];
    const found = draft.version === 'latest'
      ? await this.context!.api.get<Definition>(base).catch(() => null)
      : await this.context!.api.get<{ schema: FormSchema }>(`${base}/versions/${draft.version}`).catch(() => null);
    this.sources = formFieldPaths(found?.schema?.components ?? []);
  }

  /** The target's fields for the settings (none until its required settings are given) and its standard mappings. */
  private async loadFields(): Promise<void> {
    const draft = this.draft;
    const target = this.target;
    if (!draft || !target || target.config_schema.some((item) => item.required && (draft.config[item.key] === undefined || draft.config[item.key] === ''))) {
      this.fields = [];
      return;
    }
    const model = encodeURIComponent(target.model);
    const [fields, mappings] = await Promise.all([
      this.context!.api.get<{ items: FieldInfo[] }>(`/api/admin/forms/targets/${model}/fields`, { query: { config: JSON.stringify(draft.config) } }).catch(() => null),
      this.context!.api.get<{ items: { source_path: string; target_field: string }[] }>(`/api/admin/forms/targets/${model}/standard-mappings`).catch(() => null),
    ]);
    this.fields = fields?.items ?? [];
    const paths = new Set(this.sources.map((s) => s.path));
    this.standard = new Map((mappings?.items ?? []).filter((m) => paths.has(m.source_path)).map((m) => [m.target_field, m.source_path]));
  }

  private async edit(patch: Partial<Draft>, reload: 'form' | 'fields' | null = null): Promise<void> {
    this.draft = { ...this.draft!, ...patch };
    if (reload === 'form') await this.loadForm();
    if (reload) await this.loadFields();
  }

  private async save(event: Event): Promise<void> {
    event.preventDefault();
    const d = this.draft!;
    const body = { name: d.name, form_definition_id: d.definitionId, form_version: d.version, target_model: d.model, target_config: d.config, access: d.access, active: d.active, bindings: this.bindings };
    this.busy = true;
    this.problems = new Map();
    this.unbound = [];
    this.refusal = null;
    try {
      const api = this.context!.api;
      const answer = this.savedId
        ? await api.put<UseCase | Refusal>(`/api/admin/forms/use-cases/${this.savedId}`, body, { quiet: true, anyStatus: true })
        : await api.post<UseCase | Refusal>('/api/admin/forms/use-cases', body, { quiet: true, anyStatus: true });
      if (failed(answer)) return this.refused(answer);
      this.savedId = (answer as UseCase).id;
      this.context!.announce(format(this.t.savedUseCase, { name: d.name }));
    } finally {
      this.busy = false;
    }
  }

  /** The API's 400 shown where it belongs. */
  private refused(answer: Refusal): void {
    const lines: string[] = [];
    const problems = new Map<number, string[]>();
    if (answer.code === 'REQUIRED_FIELD_UNBOUND') {
      this.unbound = answer.fields ?? [];
      lines.push(format(this.t.unboundRequired, { fields: this.unbound.join(', ') }));
    } else if (answer.code === 'BINDINGS_INVALID') {
      for (const problem of answer.problems ?? []) {
        const at = /^binding (\d+) \(/.exec(problem);
        if (at) problems.set(Number(at[1]), [...(problems.get(Number(at[1])) ?? []), problem.replace(/^binding \d+ \([^)]*\): /, '')]);
        else lines.push(problem);
      }
      const unbound = (answer.problems ?? []).find((p) => /^required target fields/i.test(p));
      if (unbound) this.unbound = unbound.replace(/^[^:]*: /, '').split(/,\s*/);
      if (problems.size) lines.unshift(answer.message ?? '');
    } else {
      lines.push(answer.message ?? String(answer.statusCode));
    }
    this.problems = problems;
    this.refusal = lines;
    this.context!.announce(`${this.t.saveRefused} ${lines.join(' ')}`);
  }

  private async preview(event: Event): Promise<void> {
    event.preventDefault();
    const text = String(new FormData(event.target as HTMLFormElement).get('payload') ?? '');
    let payload: unknown;
    try {
      payload = JSON.parse(text);
      if (!payload || typeof payload !== 'object' || Array.isArray(payload)) throw new Error('not an object');
    } catch {
      this.hydration = { ok: false, lines: [this.t.payloadNotJson] };
      return;
    }
    this.busy = true;
    try {
      const answer = await this.context!.api.post<{ hydration: { object: unknown } } | Refusal>(`/api/admin/forms/use-cases/${this.savedId}/preview`, { payload }, { quiet: true, anyStatus: true });
      this.hydration = failed(answer)
        ? { ok: false, lines: [answer.message ?? '', ...(answer.errors ?? []).map((e) => `${e.path}: ${e.message}`)] }
        : { ok: true, lines: [], object: (answer as { hydration: { object: unknown } }).hydration.object };
      this.context!.announce(this.hydration.ok ? this.t.hydrationObject : `${this.t.hydrationRefused} ${this.hydration.lines.join(' ')}`);
    } finally {
      this.busy = false;
    }
  }

  private configInputs() {
    const d = this.draft!;
    return (this.target?.config_schema ?? []).map((item) => {
      const id = `config-${item.key}`;
      const value = d.config[item.key];
      const set = (v: unknown) => this.edit({ config: { ...d.config, [item.key]: v } }, 'fields');
      const label = html`<label for=${id}>${item.label}${item.required ? html`<span class="req" aria-hidden="true">*</span>` : nothing}</label>`;
      const hint = item.help_text ? html`<p class="hint" id="${id}-hint">${item.help_text}</p>` : nothing;
      if (item.type === 'boolean') return html`<div class="field"><label class="check"><input type="checkbox" id=${id} .checked=${Boolean(value)} @change=${(e: Event) => set((e.target as HTMLInputElement).checked)}>${item.label}</label>${hint}</div>`;
      if (item.type === 'text') return html`<div class="field">${label}<input id=${id} ?required=${item.required} .value=${String(value ?? '')} @change=${(e: Event) => set((e.target as HTMLInputElement).value)}>${hint}</div>`;
      return html`<div class="field">${label}<select id=${id} ?required=${item.required} @change=${(e: Event) => {
        const raw = (e.target as HTMLSelectElement).value;
        const option = item.options?.find((o) => String(o.id) === raw);
        set(raw === '' ? undefined : option?.id ?? raw);
      }}>
        <option value="" ?selected=${value === undefined}>${this.t.choose}</option>
        ${(item.options ?? []).map((o) => html`<option value=${String(o.id)} ?selected=${String(o.id) === String(value)}>${o.label}</option>`)}
      </select>${hint}</div>`;
    });
  }

  private samplePayload(): string {
    return JSON.stringify(Object.fromEntries(this.sources.filter((s) => !s.path.includes('.')).map((s) => [s.path, ''])), null, 2);
  }

  render() {
    const t = this.t;
    const d = this.draft;
    if (!d) return html`<p aria-busy="true">${t.loading}</p>`;
    return html`<section aria-labelledby="use-case-heading">
      <button type="button" @click=${() => this.dispatchEvent(openEvent({ page: 'use-cases' }))}>${t.back}</button>
      <h2 id="use-case-heading">${this.savedId ? d.name : t.newUseCase}</h2>
      <form @submit=${this.save} aria-labelledby="use-case-heading">
        <div class="field"><label for="uc-name">${t.name}<span class="req" aria-hidden="true">*</span></label>
          <input id="uc-name" required maxlength="200" .value=${d.name} @input=${(e: Event) => { this.draft = { ...d, name: (e.target as HTMLInputElement).value }; }}></div>
        <div class="field"><label for="uc-form">${t.form}</label>
          <select id="uc-form" required @change=${(e: Event) => this.edit({ definitionId: (e.target as HTMLSelectElement).value, version: 'latest' }, 'form')}>
            ${this.definitions.map((def) => html`<option value=${def.id} ?selected=${def.id === d.definitionId}>${def.name}</option>`)}
          </select></div>
        <div class="field"><label for="uc-version">${t.formVersion}</label>
          <select id="uc-version" @change=${(e: Event) => { const v = (e.target as HTMLSelectElement).value; void this.edit({ version: v === 'latest' ? 'latest' : Number(v) }, 'form'); }}>
            <option value="latest" ?selected=${d.version === 'latest'}>${t.latest}</option>
            ${this.versions.map((v) => html`<option value=${String(v.version)} ?selected=${v.version === d.version}>${v.version}</option>`)}
          </select></div>
        <div class="field"><label for="uc-target">${t.target}</label>
          <select id="uc-target" required @change=${(e: Event) => { const model = (e.target as HTMLSelectElement).value; void this.edit({ model, config: this.defaults(this.targets.find((x) => x.model === model)) }, 'fields'); }}>
            ${this.targets.map((x) => html`<option value=${x.model} ?selected=${x.model === d.model}>${x.label} (${x.model})</option>`)}
          </select></div>
        ${this.target?.config_schema.length ? html`<fieldset><legend>${t.targetConfig}</legend>${this.configInputs()}</fieldset>` : nothing}
        <div class="field"><label for="uc-access">${t.access}</label>
          <select id="uc-access" @change=${(e: Event) => { this.draft = { ...d, access: (e.target as HTMLSelectElement).value as Draft['access'] }; }}>
            <option value="public" ?selected=${d.access === 'public'}>${t.accessPublic}</option>
            <option value="authenticated" ?selected=${d.access === 'authenticated'}>${t.accessAuthenticated}</option>
          </select></div>
        <label class="check"><input type="checkbox" .checked=${d.active} @change=${(e: Event) => { this.draft = { ...d, active: (e.target as HTMLInputElement).checked }; }}>${t.active}</label>
        <fieldset><legend>${t.bindings}</legend>
          <p class="hint">${t.bindingsIntro}</p>
          ${this.fields.length ? html`<console-forms-bindings .locale=${this.context?.locale ?? 'en'} .fields=${this.fields} .sources=${this.sources} .standard=${this.standard}
            .bindings=${this.bindings} .problems=${this.problems} .unbound=${this.unbound} @bindings-change=${(e: CustomEvent<Binding[]>) => { this.bindings = e.detail; }}></console-forms-bindings>` : html`<p>${t.chooseFormAndTarget}</p>`}
        </fieldset>
        ${this.refusal ? html`<div role="alert" class="problem"><p class="problem">${t.saveRefused}</p>${this.refusal.map((line) => html`<p class="problem">${line}</p>`)}</div>` : nothing}
        <div class="actions"><button type="submit" class="primary" ?disabled=${this.busy}>${t.saveUseCase}</button></div>
      </form>
      <h3>${t.hydration}</h3>
      ${this.savedId ? html`<p class="hint">${t.hydrationIntro}</p>
        <form @submit=${this.preview} aria-label=${t.hydration}>
          <div class="field"><label for="uc-payload">${t.samplePayload}</label><textarea id="uc-payload" name="payload" rows="6" .value=${this.samplePayload()}></textarea></div>
          <div class="actions"><button type="submit" ?disabled=${this.busy}>${t.runPreview}</button></div>
        </form>
        ${this.hydration ? html`<div role="status">${this.hydration.ok
          ? html`<h4>${t.hydrationObject}</h4><pre>${JSON.stringify(this.hydration.object, null, 2)}</pre>`
          : html`<p class="problem">${t.hydrationRefused}</p><ul class="errors">${this.hydration.lines.map((l) => html`<li>${l}</li>`)}</ul>`}</div>` : nothing}`
        : html`<p>${t.saveFirst}</p>`}
    </section>`;
  }
}
if (!customElements.get('console-forms-use-case')) customElements.define('console-forms-use-case', FormsUseCase);
