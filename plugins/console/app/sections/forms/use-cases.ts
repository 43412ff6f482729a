// <console-forms-use-cases>: the tenant's use cases (GET
// /api/admin/forms/use-cases) with their form, version, target and access;
// opening one or starting a new one goes to the use case editor.
import { html } from 'lit';
import { format } from '../../i18n.ts';
import type { SectionContext } from '../contract.ts';
import { TenantSection } from '../../ui/tenant-section.ts';
import '../../ui/row-button.ts';
import '../../ui/status-badge.ts';
import '../../ui/table.ts';
import type { Column } from '../../ui/table.ts';
import { openEvent } from './open.ts';
import { FORMS_STRINGS, type FormsStrings } from './strings.ts';
import { formsStyles } from './styles.ts';
import type { Definition, Paged, UseCase } from './types.ts';

export class FormsUseCases extends TenantSection<FormsStrings> {
  static properties = { ...TenantSection.properties, items: { state: true }, names: { state: true } };
  declare items: UseCase[] | null;
  declare names: Map<string, string>;
  static styles = formsStyles;
  protected strings = FORMS_STRINGS;

  constructor() {
    super();
    this.items = null;
    this.names = new Map();
  }

  protected contextChanged(context: SectionContext): void {
    this.items = null;
    void Promise.all([
      context.api.get<Paged<UseCase>>('/api/admin/forms/use-cases', { query: { limit: 500 } }).catch(() => null),
      context.api.get<Paged<Definition>>('/api/admin/forms/definitions', { query: { limit: 500 } }).catch(() => null),
    ]).then(([useCases, definitions]) => {
      this.names = new Map((definitions?.items ?? []).map((d) => [d.id, d.name]));
      this.items = useCases?.items ?? [];
    });
  }

  render() {
    const t = this.t;
    const columns: Column<UseCase>[] = [
      { label: t.name, cell: (u) => html`<console-row-button variant="link" label=${format(t.open, { name: u.name })} @click=${() => this.dispatchEvent(openEvent({ page: 'use-case', id: u.id }))}>${u.name}</console-row-button>` },
      { label: t.form, cell: (u) => this.names.get(u.form_definition_id) ?? u.form_definition_id },
      { label: t.formVersion, cell: (u) => u.form_version === 'latest' ? t.latest : u.form_version },
      { label: t.target, cell: (u) => u.target_model },
      { label: t.access, cell: (u) => u.access },
      { label: t.active, cell: (u) => html`<console-status tone=${u.active ? 'ok' : 'neutral'}>${u.active ? t.yes : t.no}</console-status>` },
    ];
    return html`<section aria-labelledby="use-cases-heading">
      <h2 id="use-cases-heading">${t.useCases}</h2>
      <p>${t.useCasesIntro}</p>
      <div class="actions"><button type="button" class="primary" @click=${() => this.dispatchEvent(openEvent({ page: 'use-case', id: null }))}>${t.newUseCase}</button></div>
      ${this.items ? html`<console-table hide-caption caption=${t.useCases} .columns=${columns} .rows=${this.items} empty=${t.none}></console-table>` : html`<p aria-busy="true">${t.loading}</p>`}
    </section>`;
  }
}
if (!customElements.get('console-forms-use-cases')) customElements.define('console-forms-use-cases', FormsUseCases);
