// The Occurrences section (staff and admins): the backoffice list filtered
// by state, type, creation date and text, the filtered set on a map, and an
// occurrence's page (detail.ts) at /console/occurrences/<id>. It calls the
// occurrences plugin's backoffice routes, its public type list, and
// /api/console/config for the map's tiles.
import { LitElement, css, html, nothing } from 'lit';
import { format } from '../../i18n.ts';
import type { SectionContext } from '../contract.ts';
import { shared } from '../../ui/styles.ts';
import '../../ui/status-badge.ts';
import '../../ui/table.ts';
import type { Column } from '../../ui/table.ts';
import type { PointsMap } from './map.ts';
import './detail.ts';
import { OCCURRENCES_STRINGS, type OccurrencesStrings } from './strings.ts';
import { stateTone, type Occurrence, type OccurrenceType, type StateGraph } from './types.ts';

const BASE = '/console/occurrences';
const PAGE = 200;

interface Filters { state: string; type: string; created_from: string; created_to: string; text: string }
const NO_FILTERS: Filters = { state: '', type: '', created_from: '', created_to: '', text: '' };

export default class OccurrencesSection extends LitElement {
  static properties = {
    context: { attribute: false },
    items: { state: true }, total: { state: true }, graph: { state: true }, types: { state: true },
    filters: { state: true }, openId: { state: true }, loading: { state: true },
  };
  declare context: SectionContext | undefined;
  declare items: Occurrence[] | null;
  declare total: number;
  declare graph: StateGraph | null;
  declare types: OccurrenceType[];
  declare filters: Filters;
  declare openId: number | null;
  declare loading: boolean;
  private loadedFor: SectionContext | undefined;
  private map: PointsMap | null = null;
  private mapLoading: Promise<void> | null = null;
  private mapContainer: HTMLElement | null = null;
  private drawn: Occurrence[] | null = null;
  private tileUrl = '';

  static styles = [shared, css`
    form.filters { display: grid; grid-template-columns: repeat(auto-fit, minmax(11rem, 1fr)); gap: 0.75rem 1rem; align-items: end; }
    .field { display: grid; gap: 0.2rem; }
    label { font-weight: 600; font-size: 0.95rem; }
    input, select { font: inherit; color: var(--fg); padding: 0.35rem 0.5rem; border: 1px solid #8c959f; border-radius: 6px; background: var(--surface); min-width: 0; }
    .actions { display: flex; gap: 0.5rem; flex-wrap: wrap; grid-column: 1 / -1; }
    .layout { display: grid; grid-template-columns: minmax(0, 3fr) minmax(16rem, 2fr); gap: 1.25rem; align-items: start; }
    #map { height: 26rem; border: 1px solid var(--border); border-radius: 8px; background: #e8edf2; }
    @media (max-width: 900px) { .layout { grid-template-columns: minmax(0, 1fr); } #map { height: 18rem; } }
    a { color: var(--accent); }
  `];

  constructor() {
    super();
    this.items = null;
    this.total = 0;
    this.graph = null;
    this.types = [];
    this.filters = { ...NO_FILTERS };
    this.openId = null;
    this.loading = false;
  }

  private get t(): OccurrencesStrings { return OCCURRENCES_STRINGS[this.context?.locale ?? 'en']; }

  connectedCallback(): void {
    super.connectedCallback();
    addEventListener('popstate', this.syncFromLocation);
  }

  disconnectedCallback(): void {
    removeEventListener('popstate', this.syncFromLocation);
    this.map?.destroy();
    this.map = null;
    this.mapContainer = null;
    super.disconnectedCallback();
  }

  /** The occurrence the address names (/console/occurrences/<id>), or the list. */
  private readonly syncFromLocation = () => {
    const match = /^\/console\/occurrences\/(\d{1,15})$/.exec(location.pathname);
    this.openId = match ? Number(match[1]) : null;
  };

  protected willUpdate(changed: Map<string, unknown>): void {
    const context = this.context;
    if (changed.has('context')) this.syncFromLocation();
    if (context && (!this.loadedFor || this.loadedFor.tenant !== context.tenant || this.loadedFor.roles !== context.roles)) {
      const tenantChanged = this.loadedFor !== undefined;
      this.loadedFor = context;
      if (tenantChanged) this.filters = { ...NO_FILTERS };
      void this.loadReferenceData().then(() => this.search());
    }
  }

  protected updated(): void {
    if (this.openId === null && this.items && this.tileUrl) void this.drawMap();
  }

  private async loadReferenceData(): Promise<void> {
    const api = this.context!.api;
    const [graph, types, config] = await Promise.all([
      api.get<StateGraph>('/api/backoffice/states').catch(() => null),
      api.get<OccurrenceType[] | { items: OccurrenceType[] }>('/api/occurrence-types').catch(() => []),
      api.get<{ map?: { tile_url: string } }>('/api/console/config', { quiet: true }).catch(() => null),
    ]);
    this.graph = graph;
    this.types = Array.isArray(types) ? types : types.items;
    this.tileUrl = config?.map?.tile_url ?? 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
  }

  /** Loads the list for the current filters. */
  async search(announce = false): Promise<void> {
    const context = this.context;
    if (!context) return;
    this.loading = true;
    const f = this.filters;
    const query = {
      state: f.state || undefined, type: f.type || undefined, text: f.text.trim() || undefined,
      created_from: f.created_from || undefined,
      // "Until" a day includes that day: the route's created_to is exclusive.
      created_to: f.created_to ? new Date(Date.parse(f.created_to) + 86_400_000).toISOString().slice(0, 10) : undefined,
      limit: PAGE, sort: '-created_at',
    };
    try {
      const page = await context.api.get<{ items: Occurrence[]; total: number }>('/api/backoffice/occurrences', { query });
      this.items = page.items;
      this.total = page.total;
      if (announce) context.announce(format(this.t.listUpdated, { count: page.items.length }));
    } catch {
      this.items = this.items ?? [];
    } finally {
      this.loading = false;
    }
  }

  private async drawMap(): Promise<void> {
    const container = this.renderRoot.querySelector<HTMLElement>('#map');
    if (!container || !this.items) return;
    if (container !== this.mapContainer) {
      // The list was rendered anew (back from an occurrence): a new map in the new container.
      this.map?.destroy();
      this.map = null;
      this.drawn = null;
      this.mapContainer = container;
      this.mapLoading = import('./map.ts').then(({ pointsMap }) => { this.map = pointsMap(container, this.tileUrl, (id) => this.open(id)); });
    }
    await this.mapLoading;
    if (this.drawn === this.items || !this.map) return;
    this.drawn = this.items;
    this.map.show(this.items.map((o) => ({ id: o.id, latitude: o.latitude, longitude: o.longitude, label: `${o.reference}: ${o.title}` })));
  }

  private stateLabel(key: string): string {
    return this.graph?.states.find((s) => s.key === key)?.label ?? key;
  }

  private typeName(id: number): string {
    return this.types.find((type) => type.id === id)?.name ?? String(id);
  }

  /** Opens an occurrence's page (a history entry of its own). */
  open(id: number): void {
    history.pushState(null, '', `${BASE}/${id}`);
    this.openId = id;
  }

  private back(event?: Event): void {
    event?.preventDefault();
    history.pushState(null, '', BASE);
    this.openId = null;
    void this.search();
  }

  private submit(event: SubmitEvent): void {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    this.filters = {
      state: String(data.get('state') ?? ''), type: String(data.get('type') ?? ''), text: String(data.get('text') ?? ''),
      created_from: String(data.get('created_from') ?? ''), created_to: String(data.get('created_to') ?? ''),
    };
    void this.search(true);
  }

  private clear(): void {
    this.filters = { ...NO_FILTERS };
    this.renderRoot.querySelector<HTMLFormElement>('form.filters')?.reset();
    void this.search(true);
  }

  private renderFilters() {
    const t = this.t;
    const f = this.filters;
    return html`<section aria-labelledby="filters">
      <h2 id="filters">${t.filters}</h2>
      <form class="filters" @submit=${(e: SubmitEvent) => this.submit(e)}>
        <div class="field"><label for="f-state">${t.state}</label><select id="f-state" name="state">
          <option value="">${t.anyState}</option>
          ${(this.graph?.states ?? []).map((s) => html`<option value=${s.key} ?selected=${f.state === s.key}>${s.label}</option>`)}
        </select></div>
        <div class="field"><label for="f-type">${t.type}</label><select id="f-type" name="type">
          <option value="">${t.anyType}</option>
          ${this.types.map((type) => html`<option value=${String(type.id)} ?selected=${f.type === String(type.id)}>${type.name}</option>`)}
        </select></div>
        <div class="field"><label for="f-from">${t.createdFrom}</label><input id="f-from" type="date" name="created_from" .value=${f.created_from}></div>
        <div class="field"><label for="f-to">${t.createdTo}</label><input id="f-to" type="date" name="created_to" .value=${f.created_to}></div>
        <div class="field"><label for="f-text">${t.text}</label><input id="f-text" type="search" name="text" maxlength="200" .value=${f.text}></div>
        <div class="actions">
          <button type="submit" class="primary" ?disabled=${this.loading}>${t.apply}</button>
          <button type="button" @click=${() => this.clear()}>${t.clear}</button>
        </div>
      </form>
    </section>`;
  }

  private renderList() {
    const t = this.t;
    const items = this.items;
    if (!items) return html`<p role="status">${t.loading}</p>`;
    const when = new Intl.DateTimeFormat(this.context?.locale, { dateStyle: 'medium', timeStyle: 'short' });
    const columns: Column<Occurrence>[] = [
      { label: t.reference, cell: (o) => html`<a href="${BASE}/${o.id}" @click=${(e: MouseEvent) => { if (e.button === 0 && !e.ctrlKey && !e.metaKey && !e.shiftKey) { e.preventDefault(); this.open(o.id); } }}>${o.reference}</a>` },
      { label: t.title, cell: (o) => o.title },
      { label: t.type, cell: (o) => this.typeName(o.occurrence_type) },
      { label: t.state, cell: (o) => html`<console-status tone=${stateTone(this.graph, o.state)}>${this.stateLabel(o.state)}</console-status>` },
      { label: t.created, cell: (o) => when.format(new Date(o.created_at)) },
    ];
    const count = this.total === 1 ? t.countOne : format(t.count, { count: this.total });
    return html`<div class="layout">
      <section aria-labelledby="results">
        <h2 id="results">${t.resultsHeading}</h2>
        <p class="muted" role="status">${count}${this.total > items.length ? html` (${format(t.shownOf, { shown: items.length })})` : nothing}</p>
        <console-table .caption=${t.results} .empty=${t.none} .columns=${columns} .rows=${items}></console-table>
      </section>
      <section aria-labelledby="map-heading">
        <h2 id="map-heading">${t.map}</h2>
        <div id="map" role="region" aria-label=${format(t.mapLabel, { count: items.length })}></div>
      </section>
    </div>`;
  }

  render() {
    if (this.openId !== null) {
      return html`<console-occurrence-detail .context=${this.context} .occurrenceId=${this.openId} .graph=${this.graph} .types=${this.types}
        @back=${(e: Event) => this.back(e)}></console-occurrence-detail>`;
    }
    return html`${this.renderFilters()}${this.renderList()}`;
  }
}
