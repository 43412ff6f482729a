// The Ontology section (admins and pipeline editors): the tenant's entity
// types (GET /api/v1/ontology/entity-types), one type with its properties,
// versions and backing datasets (entity-type.ts), a new type or version
// (type-editor.ts); the identity policies (GET /api/v1/identity-policies)
// and one policy with its rules, versions and dry run (policy.ts).
import { html, nothing } from 'lit';
import { format } from '../../i18n.ts';
import type { SectionContext } from '../contract.ts';
import { scrollRegion } from '../../ui/scroll-region.ts';
import { TenantSection } from '../../ui/tenant-section.ts';
import '../../ui/row-button.ts';
import '../../ui/status-badge.ts';
import '../../ui/table.ts';
import type { Column } from '../../ui/table.ts';
import { canEdit, ontologyStyles, when } from './common.ts';
import './entity-type.ts';
import './type-editor.ts';
import './policy.ts';
import { ONTOLOGY_STRINGS, type OntologyStrings } from './strings.ts';
import type { EntityType, List, Policy } from './types.ts';

export default class OntologySection extends TenantSection<OntologyStrings> {
  static properties = {
    types: { state: true }, policies: { state: true }, openType: { state: true }, openPolicy: { state: true }, creating: { state: true },
  };
  declare types: EntityType[] | null;
  declare policies: Policy[] | null;
  declare openType: string | null;
  declare openPolicy: string | null;
  declare creating: boolean;
  static styles = ontologyStyles;
  protected strings = ONTOLOGY_STRINGS;

  constructor() {
    super();
    this.types = null;
    this.policies = null;
    this.openType = null;
    this.openPolicy = null;
    this.creating = false;
  }

  protected contextChanged(): void {
    this.openType = null;
    this.openPolicy = null;
    this.creating = false;
    void this.load();
  }

  private async load(announce = false): Promise<void> {
    const api = this.context?.api;
    if (!api) return;
    const [types, policies] = await Promise.all([
      api.get<List<EntityType>>('/api/v1/ontology/entity-types', { query: { limit: 500 } }).then((r) => r.items, () => null),
      api.get<List<Policy>>('/api/v1/identity-policies', { query: { limit: 500 } }).then((r) => r.items, () => null),
    ]);
    this.types = types;
    this.policies = policies;
    if (announce) this.context?.announce(this.t.refreshed);
  }

  private async open(kind: 'type' | 'policy', id: string): Promise<void> {
    if (kind === 'type') { this.openType = id; this.creating = false; } else this.openPolicy = id;
    await this.updateComplete;
    await this.renderRoot.querySelector<HTMLElement & { focusHeading(): Promise<void> }>(kind === 'type' ? 'console-ontology-type' : 'console-ontology-policy')?.focusHeading();
  }

  private async created(event: CustomEvent<{ code: string }>): Promise<void> {
    this.creating = false;
    await this.load();
    await this.open('type', event.detail.code);
  }

  private renderTypes() {
    const t = this.t;
    const locale = this.context?.locale ?? 'en';
    const columns: Column<EntityType>[] = [
      { label: t.code, cell: (x) => html`<console-row-button variant="link" label=${format(t.openType, { code: x.code })} @click=${() => this.open('type', x.code)}>${x.code}</console-row-button>` },
      { label: t.name, cell: (x) => x.name },
      { label: t.version, cell: (x) => x.current_version, numeric: true },
      { label: t.keys, cell: (x) => x.keys.join(', ') },
      { label: t.state, cell: (x) => html`<console-status tone=${x.deprecated ? 'warn' : 'ok'}>${x.deprecated ? t.deprecated : t.current}</console-status>` },
      { label: t.updated, cell: (x) => when(x.updated_at, locale) },
    ];
    const editable = canEdit(this.context?.roles ?? []);
    return html`<section>
      <div class="head"><h2 id="types-heading">${t.entityTypes}</h2>
        <button type="button" ?disabled=${!this.context} @click=${() => this.load(true)}>${t.refresh}</button></div>
      <p class="muted">${t.entityTypesIntro}</p>
      ${this.types ? scrollRegion(t.entityTypes, html`<console-table hide-caption .caption=${t.entityTypes} .empty=${t.noTypes} .columns=${columns} .rows=${this.types}></console-table>`) : nothing}
      ${editable && !this.creating ? html`<p><button type="button" @click=${() => { this.creating = true; }}>${t.newType}</button></p>` : nothing}
      ${this.creating ? html`<console-ontology-type-editor .context=${this.context} @saved=${this.created} @cancel=${() => { this.creating = false; }}></console-ontology-type-editor>` : nothing}
    </section>
    ${this.openType ? html`<console-ontology-type .context=${this.context} .code=${this.openType}
      @versioned=${() => this.load()} @close=${() => { this.openType = null; }}></console-ontology-type>` : nothing}`;
  }

  private renderPolicies() {
    const t = this.t;
    const locale = this.context?.locale ?? 'en';
    const columns: Column<Policy>[] = [
      { label: t.name, cell: (x) => html`<console-row-button variant="link" label=${format(t.openPolicy, { name: x.name })} @click=${() => this.open('policy', x.id)}>${x.name}</console-row-button>` },
      { label: t.description, cell: (x) => x.description || t.none },
      { label: t.version, cell: (x) => x.version, numeric: true },
      { label: t.rulesCount, cell: (x) => x.rules.length, numeric: true },
      { label: t.updated, cell: (x) => when(x.updated_at, locale) },
    ];
    return html`<section>
      <h2 id="policies-heading">${t.policies}</h2>
      <p class="muted">${t.policiesIntro}</p>
      ${this.policies ? scrollRegion(t.policies, html`<console-table hide-caption .caption=${t.policies} .empty=${t.noPolicies} .columns=${columns} .rows=${this.policies}></console-table>`) : nothing}
    </section>
    ${this.openPolicy ? html`<console-ontology-policy .context=${this.context} .policyId=${this.openPolicy}
      @close=${() => { this.openPolicy = null; }}></console-ontology-policy>` : nothing}`;
  }

  render() {
    return html`${this.renderTypes()}${this.renderPolicies()}`;
  }
}
