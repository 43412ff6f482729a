// <console-ontology-type>: one entity type (GET
// /api/v1/ontology/entity-types/{code}): its properties, relationships and
// carrier types, its versions with what changed from one to the next (GET
// …/{code}/versions), an editor that saves a new version (type-editor.ts),
// and the backing datasets mapped onto it (backing-dataset.ts). Fires
// `versioned` after a new version, `close` when closed.
import { html, nothing } from 'lit';
import { format } from '../../i18n.ts';
import type { SectionContext } from '../contract.ts';
import { scrollRegion } from '../../ui/scroll-region.ts';
import { TenantSection } from '../../ui/tenant-section.ts';
import '../../ui/table.ts';
import type { Column } from '../../ui/table.ts';
import { canEdit, ontologyStyles, when } from './common.ts';
import './backing-dataset.ts';
import './type-editor.ts';
import { ONTOLOGY_STRINGS, type OntologyStrings } from './strings.ts';
import type { BackingDataset, EntityType, List, TypeVersion } from './types.ts';
import { versionChanges } from './version-changes.ts';

interface PropertyRow { name: string; type: string; format: string; required: boolean; key: boolean }

export class OntologyType extends TenantSection<OntologyStrings> {
  static properties = {
    code: {}, type: { state: true }, versions: { state: true }, backing: { state: true }, editing: { state: true },
  };
  declare code: string;
  declare type: EntityType | null;
  declare versions: TypeVersion[] | null;
  declare backing: BackingDataset[] | null;
  declare editing: boolean;
  static styles = ontologyStyles;
  protected strings = ONTOLOGY_STRINGS;

  constructor() {
    super();
    this.code = '';
    this.type = null;
    this.versions = null;
    this.backing = null;
    this.editing = false;
  }

  protected contextChanged(): void {
    void this.load();
  }

  protected willUpdate(changed: Map<PropertyKey, unknown>): void {
    super.willUpdate(changed);
    if (changed.has('code') && changed.get('code') !== undefined) {
      this.editing = false;
      void this.load();
    }
  }

  /** Moves focus to the type's heading (after it was opened). */
  async focusHeading(): Promise<void> {
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('h2')?.focus();
  }

  private async load(): Promise<void> {
    const api = this.context?.api;
    const code = this.code;
    if (!api || !code) return;
    this.type = null;
    this.versions = null;
    this.backing = null;
    const path = `/api/v1/ontology/entity-types/${encodeURIComponent(code)}`;
    const [type, versions, backing] = await Promise.all([
      api.get<EntityType>(path).catch(() => null),
      api.get<List<TypeVersion>>(`${path}/versions`).then((r) => r.items, () => null),
      this.backingOf(api, code),
    ]);
    if (code !== this.code) return;
    Object.assign(this, { type, versions, backing });
  }

  /** The backing datasets mapped onto `code`: every page of the tenant's list, kept when they name this type. */
  private async backingOf(api: SectionContext['api'], code: string): Promise<BackingDataset[] | null> {
    const found: BackingDataset[] = [];
    let after: string | undefined;
    try {
      do {
        const page = await api.get<List<BackingDataset>>('/api/v1/backing-datasets', { query: { limit: 500, after } });
        found.push(...page.items.filter((b) => b.entity_type === code));
        after = page.next_cursor ?? undefined;
      } while (after);
    } catch {
      return null;
    }
    return found;
  }

  private async saved(): Promise<void> {
    this.editing = false;
    await this.load();
    this.dispatchEvent(new CustomEvent('versioned', { bubbles: true, composed: true }));
  }

  private propertyRows(type: EntityType): PropertyRow[] {
    const required = new Set(type.properties.required ?? []);
    return Object.entries(type.properties.properties ?? {}).map(([name, schema]) => ({
      name,
      type: Array.isArray(schema.type) ? schema.type.join(' | ') : schema.type ?? '',
      format: schema.format ?? '',
      required: required.has(name),
      key: type.keys.includes(name),
    }));
  }

  private renderProperties(type: EntityType) {
    const t = this.t;
    const yesNo = (value: boolean) => (value ? t.yes : t.no);
    const columns: Column<PropertyRow>[] = [
      { label: t.property, cell: (p) => html`<span class="mono">${p.name}</span>` },
      { label: t.type, cell: (p) => p.type || t.none },
      { label: t.format, cell: (p) => p.format || t.none },
      { label: t.required, cell: (p) => yesNo(p.required) },
      { label: t.key, cell: (p) => yesNo(p.key) },
    ];
    return html`<h3>${t.properties}</h3>
      ${scrollRegion(`${t.properties}: ${type.code}`, html`<console-table hide-caption .caption=${`${t.properties}: ${type.code}`} .empty=${t.noProperties} .columns=${columns} .rows=${this.propertyRows(type)}></console-table>`)}
      ${type.relationships.length || type.carrier_types.length ? html`<dl>
        ${type.relationships.length ? html`<dt>${t.relationships}</dt>
          <dd>${type.relationships.map((r) => `${r.name} → ${r.target_type} (${r.cardinality}, via ${r.via})`).join('; ')}</dd>` : nothing}
        ${type.carrier_types.length ? html`<dt>${t.carrierTypes}</dt><dd>${type.carrier_types.join(', ')}</dd>` : nothing}
      </dl>` : nothing}`;
  }

  private renderVersions() {
    const t = this.t;
    const versions = this.versions;
    if (!versions) return nothing;
    const locale = this.context?.locale ?? 'en';
    const rows = [...versions].reverse();
    const previous = new Map(versions.map((v, i) => [v.version, i > 0 ? versions[i - 1]! : null]));
    const columns: Column<TypeVersion>[] = [
      { label: t.version, cell: (v) => v.version, numeric: true },
      { label: t.createdAt, cell: (v) => when(v.created_at, locale) },
      { label: t.createdBy, cell: (v) => v.created_by ?? t.none },
      {
        label: t.changes,
        cell: (v) => {
          const changes = versionChanges(previous.get(v.version) ?? null, v);
          if (!changes.length) return t.noChanges;
          return html`<ul class="changes">${changes.map((c) => html`<li>${format(t.changeLabels[c.kind], { subject: c.subject ?? '' })}</li>`)}</ul>`;
        },
      },
    ];
    return html`<h3>${t.versions}</h3>
      ${scrollRegion(`${t.versions}: ${this.code}`, html`<console-table hide-caption .caption=${`${t.versions}: ${this.code}`} .empty=${t.none} .columns=${columns} .rows=${rows}></console-table>`)}`;
  }

  private renderBacking() {
    const t = this.t;
    if (!this.backing) return nothing;
    return html`<h3>${t.backingDatasets}</h3>
      <p class="muted">${t.backingIntro}</p>
      ${this.backing.length === 0 ? html`<p>${t.noBacking}</p>` : this.backing.map((b) => html`<console-ontology-backing .context=${this.context} .backing=${b}></console-ontology-backing>`)}`;
  }

  render() {
    const t = this.t;
    const type = this.type;
    const editable = canEdit(this.context?.roles ?? []);
    return html`<section class="panel" aria-labelledby="type-heading">
      <div class="head">
        <h2 id="type-heading" tabindex="-1">${format(t.typeOf, { code: this.code })}</h2>
        <div class="actions">
          ${type && editable && !this.editing ? html`<button type="button" @click=${() => { this.editing = true; }}>${t.editType}</button>` : nothing}
          <button type="button" @click=${() => this.dispatchEvent(new CustomEvent('close'))}>${t.close}</button>
        </div>
      </div>
      ${type ? html`<p>${format(t.typeSummary, { name: type.name, version: type.current_version })}${type.description ? html`: ${type.description}` : nothing}</p>
        ${this.editing ? html`<console-ontology-type-editor .context=${this.context} .current=${type}
          @saved=${this.saved} @cancel=${() => { this.editing = false; }}></console-ontology-type-editor>` : nothing}
        ${this.renderProperties(type)}${this.renderVersions()}${this.renderBacking()}` : nothing}
    </section>`;
  }
}

if (!customElements.get('console-ontology-type')) customElements.define('console-ontology-type', OntologyType);
