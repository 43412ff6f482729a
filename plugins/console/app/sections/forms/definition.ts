// <console-forms-definition>: one form definition: its versions (GET
// .../versions; the latest is the published one; publishing an earlier
// version saves its form as the next version, PUT), the Form.io builder
// (saving a new version, PUT) and a preview of a chosen version with
// Form.io's renderer, checked by Form.io in the page and by the server
// (POST .../versions/{v}/validate). Form.io draws into `formio`, a light-DOM
// element of the section shown through this element's slot.
import { html, nothing } from 'lit';
import { format } from '../../i18n.ts';
import type { SectionContext } from '../contract.ts';
import { TenantSection } from '../../ui/tenant-section.ts';
import '../../ui/row-button.ts';
import '../../ui/status-badge.ts';
import '../../ui/table.ts';
import type { Column } from '../../ui/table.ts';
import type { BuilderHandle } from './formio-builder.ts';
import type { PreviewHandle } from './formio-renderer.ts';
import { openEvent } from './open.ts';
import { FORMS_STRINGS, type FormsStrings } from './strings.ts';
import { formsStyles } from './styles.ts';
import type { Definition, Validation, VersionSummary } from './types.ts';

type Mode = { kind: 'none' } | { kind: 'builder' } | { kind: 'preview'; version: number };
type Check = { client: boolean; server: Validation } | null;

export class FormsDefinition extends TenantSection<FormsStrings> {
  static properties = {
    ...TenantSection.properties, definitionId: { attribute: false }, formio: { attribute: false },
    definition: { state: true }, versions: { state: true }, mode: { state: true }, loading: { state: true }, busy: { state: true }, check: { state: true },
  };
  declare definitionId: string;
  declare formio: HTMLElement;
  declare definition: Definition | null;
  declare versions: VersionSummary[];
  declare mode: Mode;
  declare loading: 'idle' | 'loading' | 'failed';
  declare busy: boolean;
  declare check: Check;
  static styles = formsStyles;
  protected strings = FORMS_STRINGS;
  private builder: BuilderHandle | null = null;
  private preview: PreviewHandle | null = null;
  private mounted: string | null = null;

  constructor() {
    super();
    this.definition = null;
    this.versions = [];
    this.mode = { kind: 'none' };
    this.loading = 'idle';
    this.busy = false;
    this.check = null;
  }

  protected contextChanged(context: SectionContext): void {
    void this.load(context);
  }

  private async load(context = this.context!): Promise<void> {
    const base = `/api/admin/forms/definitions/${this.definitionId}`;
    const [definition, versions] = await Promise.all([
      context.api.get<Definition>(base).catch(() => null),
      context.api.get<{ items: VersionSummary[] }>(`${base}/versions`).catch(() => null),
    ]);
    this.definition = definition;
    this.versions = versions?.items ?? [];
  }

  disconnectedCallback(): void {
    super.disconnectedCallback();
    this.unmount();
  }

  private unmount(): void {
    this.builder?.destroy();
    this.preview?.destroy();
    this.builder = null;
    this.preview = null;
    this.mounted = null;
  }

  private show(mode: Mode): void {
    this.unmount();
    this.check = null;
    this.mode = mode;
  }

  protected async updated(): Promise<void> {
    const key = this.mode.kind === 'none' ? null : `${this.mode.kind}:${this.mode.kind === 'preview' ? this.mode.version : ''}`;
    if (!key || key === this.mounted || !this.definition) return;
    this.mounted = key;
    this.loading = 'loading';
    const language = this.context?.locale ?? 'en';
    try {
      if (this.mode.kind === 'builder') {
        const { mountBuilder } = await import('./formio-builder.ts');
        const handle = await mountBuilder(this.formio, this.definition.schema ?? { components: [] }, language, () => {});
        if (this.mounted !== key) return handle.destroy();
        this.builder = handle;
      } else if (this.mode.kind === 'preview') {
        const found = await this.context!.api.get<{ schema: Record<string, unknown> }>(`/api/admin/forms/definitions/${this.definitionId}/versions/${this.mode.version}`);
        const { mountPreview } = await import('./formio-renderer.ts');
        const handle = await mountPreview(this.formio, found.schema, language);
        if (this.mounted !== key) return handle.destroy();
        this.preview = handle;
      }
      this.loading = 'idle';
    } catch {
      this.loading = 'failed';
    }
  }

  private async save(): Promise<void> {
    if (!this.builder || !this.definition) return;
    const before = this.definition.latest_version;
    this.busy = true;
    try {
      const saved = await this.context!.api.put<Definition>(`/api/admin/forms/definitions/${this.definitionId}`, { schema: this.builder.schema() });
      this.definition = saved;
      await this.load();
      this.context!.announce(saved.latest_version === before ? format(this.t.unchanged, { version: before }) : format(this.t.savedVersion, { version: saved.latest_version }));
    } catch { /* shown by the shell */ } finally {
      this.busy = false;
    }
  }

  private async publish(version: number): Promise<void> {
    this.busy = true;
    try {
      const base = `/api/admin/forms/definitions/${this.definitionId}`;
      const { schema } = await this.context!.api.get<{ schema: Record<string, unknown> }>(`${base}/versions/${version}`);
      const saved = await this.context!.api.put<Definition>(base, { schema });
      this.unmount();
      this.mode = { kind: 'none' };
      await this.load();
      this.context!.announce(format(this.t.publishedAs, { version, latest: saved.latest_version }));
    } catch { /* shown by the shell */ } finally {
      this.busy = false;
    }
  }

  private async checkPreview(): Promise<void> {
    if (!this.preview || this.mode.kind !== 'preview') return;
    const valid = await this.preview.validate();
    const payload = valid ?? this.preview.data();
    this.busy = true;
    try {
      const server = await this.context!.api.post<Validation>(`/api/admin/forms/definitions/${this.definitionId}/versions/${this.mode.version}/validate`, { payload });
      this.check = { client: valid !== null, server };
      this.context!.announce(`${valid ? this.t.clientValid : this.t.clientInvalid} ${server.valid ? this.t.serverValid : `${this.t.serverInvalid} ${server.errors.map((e) => e.message).join('; ')}`}`);
    } catch { /* shown by the shell */ } finally {
      this.busy = false;
    }
  }

  private versionsTable() {
    const t = this.t;
    const latest = this.definition?.latest_version;
    const columns: Column<VersionSummary>[] = [
      { label: t.version, cell: (v) => v.version, numeric: true },
      { label: t.state, cell: (v) => v.version === latest ? html`<console-status tone="ok">${t.published}</console-status>` : html`<console-status>${t.earlier}</console-status>` },
      { label: t.created, cell: (v) => new Date(v.created_at).toLocaleString(this.context?.locale) },
      { label: t.by, cell: (v) => v.created_by ?? '' },
      {
        label: t.actions, cell: (v) => html`<span class="row-actions">
          <console-row-button @click=${() => this.show({ kind: 'preview', version: v.version })}>${format(t.previewVersion, { version: v.version })}</console-row-button>
          ${v.version === latest ? nothing : html`<console-row-button ?disabled=${this.busy} @click=${() => this.publish(v.version)}>${format(t.publishVersion, { version: v.version })}</console-row-button>`}
        </span>`,
      },
    ];
    return html`<console-table hide-caption caption=${t.versions} .columns=${columns} .rows=${this.versions} empty=${t.none}></console-table>`;
  }

  private formioArea() {
    const t = this.t;
    return html`${this.loading === 'loading' ? html`<p aria-busy="true">${t.builderLoading}</p>` : nothing}
      ${this.loading === 'failed' ? html`<p class="problem" role="alert">${t.builderFailed}</p>` : nothing}
      <div class="formio-host"><slot></slot></div>`;
  }

  private checkResult() {
    const check = this.check;
    if (!check) return nothing;
    const t = this.t;
    return html`<div role="status">
      <p class=${check.client ? 'ok' : 'problem'}>${check.client ? t.clientValid : t.clientInvalid}</p>
      ${check.server.valid ? html`<p class="ok">${t.serverValid}</p>` : html`<p class="problem">${t.serverInvalid}</p>
        <ul class="errors">${check.server.errors.map((e) => html`<li><code>${e.path}</code>: ${e.message}</li>`)}</ul>`}
    </div>`;
  }

  render() {
    const t = this.t;
    const d = this.definition;
    if (!d) return html`<p aria-busy="true">${t.loading}</p>`;
    const mode = this.mode;
    return html`<section aria-labelledby="definition-heading">
      <button type="button" @click=${() => this.dispatchEvent(openEvent({ page: 'definitions' }))}>${t.back}</button>
      <h2 id="definition-heading">${d.name}</h2>
      ${d.description ? html`<p>${d.description}</p>` : nothing}
      <h3>${t.versions}</h3>
      <p class="hint">${t.publishHint}</p>
      ${this.versionsTable()}
      <h3>${t.builder}</h3>
      <p class="hint">${t.builderIntro}</p>
      ${mode.kind === 'builder'
        ? html`<div class="actions"><button type="button" class="primary" ?disabled=${this.busy || this.loading !== 'idle'} @click=${this.save}>${t.saveVersion}</button>
            <button type="button" @click=${() => this.show({ kind: 'none' })}>${t.closeBuilder}</button></div>${this.formioArea()}`
        : html`<div class="actions"><button type="button" @click=${() => this.show({ kind: 'builder' })}>${t.openBuilder}</button></div>`}
      ${mode.kind === 'preview' ? html`<h3>${format(t.preview, { version: mode.version })}</h3>
        <p class="hint">${t.previewIntro}</p>
        ${this.formioArea()}
        <div class="actions"><button type="button" class="primary" ?disabled=${this.busy || this.loading !== 'idle'} @click=${this.checkPreview}>${t.checkPreview}</button>
          <button type="button" @click=${() => this.show({ kind: 'none' })}>${t.closePreview}</button></div>
        ${this.checkResult()}` : nothing}
    </section>`;
  }
}
if (!customElements.get('console-forms-definition')) customElements.define('console-forms-definition', FormsDefinition);
