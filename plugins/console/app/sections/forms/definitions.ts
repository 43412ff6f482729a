// <console-forms-definitions>: the tenant's form definitions (GET
// /api/admin/forms/definitions) and a form that creates one (POST, version 1:
// an empty form, built in the builder next).
import { html } from 'lit';
import { format } from '../../i18n.ts';
import type { SectionContext } from '../contract.ts';
import { TenantSection } from '../../ui/tenant-section.ts';
import '../../ui/row-button.ts';
import '../../ui/table.ts';
import type { Column } from '../../ui/table.ts';
import { openEvent } from './open.ts';
import { FORMS_STRINGS, type FormsStrings } from './strings.ts';
import { formsStyles } from './styles.ts';
import type { Definition, Paged } from './types.ts';

export class FormsDefinitions extends TenantSection<FormsStrings> {
  static properties = { ...TenantSection.properties, items: { state: true }, busy: { state: true } };
  declare items: Definition[] | null;
  declare busy: boolean;
  static styles = formsStyles;
  protected strings = FORMS_STRINGS;

  constructor() {
    super();
    this.items = null;
    this.busy = false;
  }

  protected contextChanged(context: SectionContext): void {
    this.items = null;
    void context.api.get<Paged<Definition>>('/api/admin/forms/definitions', { query: { limit: 500 } }).catch(() => null).then((found) => { this.items = found?.items ?? []; });
  }

  private async create(event: Event): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const data = new FormData(form);
    const name = String(data.get('name') ?? '').trim();
    this.busy = true;
    try {
      const created = await this.context!.api.post<Definition>('/api/admin/forms/definitions', {
        name, description: String(data.get('description') ?? ''), schema: { display: 'form', components: [] },
      });
      this.context!.announce(format(this.t.createdDefinition, { name }));
      this.dispatchEvent(openEvent({ page: 'definition', id: created.id }));
    } catch { /* shown by the shell */ } finally {
      this.busy = false;
    }
  }

  render() {
    const t = this.t;
    const columns: Column<Definition>[] = [
      { label: t.name, cell: (d) => html`<console-row-button variant="link" label=${format(t.open, { name: d.name })} @click=${() => this.dispatchEvent(openEvent({ page: 'definition', id: d.id }))}>${d.name}</console-row-button>` },
      { label: t.description, cell: (d) => d.description },
      { label: t.latestVersion, cell: (d) => d.latest_version, numeric: true },
      { label: t.updated, cell: (d) => new Date(d.updated_at).toLocaleString(this.context?.locale) },
    ];
    return html`<section aria-labelledby="definitions-heading">
      <h2 id="definitions-heading">${t.definitions}</h2>
      <p>${t.definitionsIntro}</p>
      ${this.items ? html`<console-table hide-caption caption=${t.definitions} .columns=${columns} .rows=${this.items} empty=${t.none}></console-table>` : html`<p aria-busy="true">${t.loading}</p>`}
      <form class="panel" aria-labelledby="new-definition" @submit=${this.create}>
        <h3 id="new-definition">${t.newDefinition}</h3>
        <div class="field"><label for="def-name">${t.name}<span class="req" aria-hidden="true">*</span></label><input id="def-name" name="name" required maxlength="200"></div>
        <div class="field"><label for="def-description">${t.description}</label><input id="def-description" name="description" maxlength="2000"></div>
        <div class="actions"><button type="submit" class="primary" ?disabled=${this.busy}>${t.create}</button></div>
      </form>
    </section>`;
  }
}
if (!customElements.get('console-forms-definitions')) customElements.define('console-forms-definitions', FormsDefinitions);
