// The Documents section: the tenant's collections (list, create), uploads
// into the chosen one (a file input and drag and drop), each document's
// ingestion status while it runs (polled every 2 s while something is pending
// or ingesting, not otherwise), errors with their reason and Retry (the
// document's reingest), the collection's aggregate status with drain rate and
// ETA, and a search box showing ranked passages with their scores and source.
import { css, html, nothing } from 'lit';
import { TenantSection } from '../../ui/tenant-section.ts';
import { format } from '../../i18n.ts';
import { shared } from '../../ui/styles.ts';
import '../../ui/status-badge.ts';
import '../../ui/table.ts';
import type { Column } from '../../ui/table.ts';
import type { Tone } from '../../ui/status-badge.ts';
import { DOCUMENTS_STRINGS, type DocumentsStrings } from './strings.ts';

interface Collection { collection_id: number; name: string; parent_id: number | null }
type Status = 'pending' | 'ingesting' | 'ready' | 'error';
interface Doc { document_id: string; name: string; ingestion_status: Status; progress_pct: number | null; error: string | null }
interface Aggregate {
  total: number; counts: Record<Status | 'other', number>; drain_rate_per_min: number; drain_window_minutes: number; eta_seconds: number | null;
}
interface Hit { chunk_id: string; document_id: string; doc_name: string; page: number | null; score: number; text: string }

const POLL_MS = 2000;
const TONES: Record<Status, Tone> = { pending: 'neutral', ingesting: 'warn', ready: 'ok', error: 'error' };
const outstanding = (doc: Doc) => doc.ingestion_status === 'pending' || doc.ingestion_status === 'ingesting';

export default class DocumentsSection extends TenantSection<DocumentsStrings> {
  static properties = {
    collections: { state: true }, selected: { state: true }, documents: { state: true }, aggregate: { state: true },
    hits: { state: true }, searched: { state: true }, busy: { state: true }, dragging: { state: true },
  };
  declare collections: Collection[] | null;
  declare selected: number | null;
  declare documents: Doc[];
  declare aggregate: Aggregate | null;
  declare hits: Hit[] | null;
  declare searched: string;
  declare busy: boolean;
  declare dragging: boolean;
  private timer: ReturnType<typeof setTimeout> | undefined;

  static styles = [shared, css`
    form { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: end; margin: 0.5rem 0 1rem; }
    label { display: grid; gap: 0.2rem; font-weight: 600; }
    input, select { font: inherit; color: var(--fg); padding: 0.35rem 0.5rem; border: 1px solid #8c959f; border-radius: 6px; background: var(--surface); min-width: 0; }
    input[type='search'] { width: min(28rem, 100%); }
    .drop { border: 2px dashed var(--border); border-radius: 8px; padding: 1rem; background: var(--surface); display: grid; gap: 0.5rem; }
    .drop.over { border-color: var(--accent); background: #eef5fd; }
    .upload-label { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; }
    .drop { grid-template-columns: minmax(0, 1fr); }
    input[type='file'] { width: min(24rem, 100%); }
    .figures { display: grid; grid-template-columns: repeat(auto-fit, minmax(8rem, 1fr)); gap: 0.75rem; }
    .figures .card { padding: 0.6rem 0.8rem; }
    .reason { color: var(--error); white-space: pre-wrap; word-break: break-word; }
    ol.hits { padding-left: 1.5rem; }
    ol.hits li { margin: 0 0 0.75rem; }
    .passage { margin: 0.25rem 0 0; white-space: pre-wrap; word-break: break-word; }
    .meta { color: var(--muted); font-size: 0.9rem; }
  `];

  protected strings = DOCUMENTS_STRINGS;

  constructor() {
    super();
    this.collections = null;
    this.selected = null;
    this.documents = [];
    this.aggregate = null;
    this.hits = null;
    this.searched = '';
    this.busy = false;
    this.dragging = false;
  }


  disconnectedCallback(): void {
    super.disconnectedCallback();
    this.stopPolling();
  }

  protected contextChanged(): void {
    this.stopPolling();
    Object.assign(this, { collections: null, selected: null, documents: [], aggregate: null, hits: null });
    void this.loadCollections();
  }

  private stopPolling(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  async loadCollections(select?: number): Promise<void> {
    const api = this.context?.api;
    if (!api) return;
    const listed = await api.get<{ items: Collection[] }>('/api/admin/collections', { query: { limit: 200 } }).catch(() => null);
    this.collections = listed?.items ?? [];
    const keep = select ?? this.selected;
    this.selected = this.collections.some((c) => c.collection_id === keep) ? keep : this.collections[0]?.collection_id ?? null;
    await this.refresh();
  }

  /** The chosen collection's documents and aggregate; polls again while something is outstanding. */
  async refresh(): Promise<void> {
    this.stopPolling();
    const context = this.context;
    const id = this.selected;
    if (!context || id === null) {
      this.documents = [];
      this.aggregate = null;
      return;
    }
    const quiet = { quiet: true } as const;
    const [docs, aggregate] = await Promise.all([
      context.api.get<{ items: Doc[] }>(`/api/admin/collections/${id}/documents`, { query: { limit: 100 }, ...quiet }).then((r) => r.items, () => null),
      context.api.get<Aggregate>(`/api/admin/collections/${id}/ingestion-status`, quiet).catch(() => null),
    ]);
    if (id !== this.selected || context !== this.context) return;
    if (docs) {
      this.announceChanges(this.documents, docs);
      this.documents = docs;
    }
    if (aggregate) this.aggregate = aggregate;
    if ((docs ?? this.documents).some(outstanding) && this.isConnected) this.timer = setTimeout(() => void this.refresh(), POLL_MS);
  }

  /** Says which documents finished since the last look. */
  private announceChanges(before: Doc[], after: Doc[]): void {
    const t = this.t;
    const was = new Map(before.map((d) => [d.document_id, d.ingestion_status]));
    const said: string[] = [];
    for (const doc of after) {
      const previous = was.get(doc.document_id);
      if (!previous || previous === doc.ingestion_status) continue;
      if (doc.ingestion_status === 'ready') said.push(format(t.becameReady, { name: doc.name }));
      if (doc.ingestion_status === 'error') said.push(format(t.becameError, { name: doc.name, reason: doc.error ?? '' }));
    }
    if (said.length) this.context?.announce(said.join('. '));
  }

  private async createCollection(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const input = form.elements.namedItem('name') as HTMLInputElement;
    const name = input.value.trim();
    if (!name || !this.context) return;
    const created = await this.context.api.post<Collection>('/api/admin/collections', { name }).catch(() => null);
    if (!created) return;
    input.value = '';
    this.context.announce(format(this.t.created, { name: created.name }));
    await this.loadCollections(created.collection_id);
  }

  private async upload(files: FileList | File[] | null): Promise<void> {
    const list = [...(files ?? [])];
    const context = this.context;
    if (!context || this.selected === null || list.length === 0) return;
    this.busy = true;
    context.announce(format(this.t.uploading, { count: list.length }));
    const said: string[] = [];
    for (const file of list) {
      const form = new FormData();
      form.append('file', file, file.name);
      const doc = await context.api.post<Doc>(`/api/admin/collections/${this.selected}/documents`, form).catch(() => null);
      if (doc) {
        said.push(format(this.t.uploaded, { name: doc.name }));
        // Known at once as pending: its later change is announced.
        if (!this.documents.some((d) => d.document_id === doc.document_id)) this.documents = [doc, ...this.documents];
      }
    }
    this.busy = false;
    if (said.length) context.announce(said.join('. '));
    await this.refresh();
  }

  private onDrop(event: DragEvent): void {
    event.preventDefault();
    this.dragging = false;
    void this.upload(event.dataTransfer?.files ?? null);
  }

  private onDragOver(event: DragEvent): void {
    event.preventDefault();
    this.dragging = true;
  }

  private async retry(doc: Doc): Promise<void> {
    const context = this.context;
    if (!context) return;
    const again = await context.api.post<Doc>(`/api/admin/documents/${doc.document_id}/reingest`).catch(() => null);
    if (!again) return;
    context.announce(format(this.t.retried, { name: doc.name }));
    this.documents = this.documents.map((d) => (d.document_id === again.document_id ? again : d));
    await this.refresh();
  }

  private async search(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const input = (event.target as HTMLFormElement).elements.namedItem('query') as HTMLInputElement;
    const query = input.value.trim();
    const context = this.context;
    if (!query || !context) return;
    const found = await context.api.get<{ results: Hit[] }>('/api/admin/search', { query: { query, top_k: 10 } }).catch(() => null);
    if (!found) return;
    this.searched = query;
    this.hits = found.results;
    context.announce(format(this.t.found, { count: found.results.length }));
  }

  private duration(seconds: number): string {
    const locale = this.context?.locale ?? 'en';
    const [unit, size] = seconds >= 3600 ? ['hour', 3600] as const : seconds >= 60 ? ['minute', 60] as const : ['second', 1] as const;
    return new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'long', maximumFractionDigits: 1 }).format(seconds / size);
  }

  private renderCollections() {
    const t = this.t;
    const collections = this.collections;
    return html`<section aria-labelledby="collections">
      <h2 id="collections">${t.collections}</h2>
      ${collections === null ? html`<p>${t.loading}</p>` : collections.length === 0 ? html`<p class="muted">${t.noCollections}</p>` : html`
        <label>${t.collection}
          <select @change=${(e: Event) => { this.selected = Number((e.target as HTMLSelectElement).value); this.hits = null; void this.refresh(); }}>
            ${collections.map((c) => html`<option value=${c.collection_id} ?selected=${c.collection_id === this.selected}>${c.name}</option>`)}
          </select>
        </label>`}
      <form @submit=${this.createCollection}>
        <label>${t.newCollection}<input name="name" required maxlength="200" autocomplete="off"></label>
        <button type="submit">${t.create}</button>
      </form>
    </section>`;
  }

  private renderUpload() {
    const t = this.t;
    return html`<div class="drop ${this.dragging ? 'over' : ''}" role="group" aria-label=${t.dropZone}
        @dragover=${this.onDragOver} @dragleave=${() => { this.dragging = false; }} @drop=${this.onDrop}>
      <span class="muted">${t.dropHint}</span>
      <label class="upload-label">${t.upload}
        <input type="file" multiple ?disabled=${this.busy}
          @change=${(e: Event) => { const input = e.target as HTMLInputElement; void this.upload(input.files).then(() => { input.value = ''; }); }}>
      </label>
    </div>`;
  }

  private renderAggregate() {
    const a = this.aggregate;
    if (!a) return nothing;
    const t = this.t;
    const locale = this.context?.locale ?? 'en';
    const rate = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(a.drain_rate_per_min);
    const eta = a.counts.pending + a.counts.ingesting === 0 ? t.etaNone : a.eta_seconds === null ? t.etaUnknown : this.duration(a.eta_seconds);
    const figures: [string, number][] = [[t.total, a.total], [t.pending, a.counts.pending], [t.ingesting, a.counts.ingesting], [t.ready, a.counts.ready], [t.error, a.counts.error]];
    return html`<section aria-labelledby="aggregate">
      <h2 id="aggregate">${t.status}</h2>
      <div class="figures">${figures.map(([label, n]) => html`<div class="card"><h3 class="muted">${label}</h3><p class="figure">${n}</p></div>`)}</div>
      <dl>
        <dt>${t.drainRate}</dt><dd>${format(t.perMinute, { rate, minutes: a.drain_window_minutes })}</dd>
        <dt>${t.eta}</dt><dd>${eta}</dd>
      </dl>
    </section>`;
  }

  private renderDocuments() {
    const t = this.t;
    const columns: Column<Doc>[] = [
      { label: t.name, cell: (d) => d.name },
      { label: t.state, cell: (d) => html`<console-status tone=${TONES[d.ingestion_status] ?? 'neutral'}>${t[d.ingestion_status] ?? d.ingestion_status}</console-status>` },
      { label: t.progress, cell: (d) => (d.progress_pct === null ? '' : `${d.progress_pct} %`), numeric: true },
      { label: t.reason, cell: (d) => (d.error ? html`<span class="reason">${d.error}</span>` : '') },
      {
        label: t.actions,
        cell: (d) => (d.ingestion_status === 'error'
          ? html`<button type="button" aria-label=${format(t.retryOf, { name: d.name })} @click=${() => this.retry(d)}>${t.retry}</button>` : ''),
      },
    ];
    return html`<section aria-labelledby="documents">
      <h2 id="documents">${t.documents}</h2>
      ${this.renderUpload()}
      <console-table .caption=${t.documents} .empty=${t.noDocuments} .columns=${columns} .rows=${this.documents}></console-table>
    </section>`;
  }

  private renderSearch() {
    const t = this.t;
    const hits = this.hits;
    const score = new Intl.NumberFormat(this.context?.locale ?? 'en', { maximumFractionDigits: 4 });
    return html`<section aria-labelledby="search">
      <h2 id="search">${t.search}</h2>
      <form role="search" aria-label=${t.searchDocuments} @submit=${this.search}>
        <label>${t.searchDocuments}<input type="search" name="query" required maxlength="1000" autocomplete="off"></label>
        <button type="submit" class="primary">${t.searchButton}</button>
      </form>
      ${hits === null ? nothing : html`<h3>${format(t.results, { query: this.searched })}</h3>
        ${hits.length === 0 ? html`<p class="muted">${t.noResults}</p>` : html`<ol class="hits" aria-label=${format(t.results, { query: this.searched })}>
          ${hits.map((hit, i) => html`<li>
            <div><strong>${hit.doc_name}</strong>${hit.page ? html` <span class="meta">(${format(t.page, { page: hit.page })})</span>` : nothing}
              · <span class="meta">${t.rank} ${i + 1} · ${t.score} ${score.format(hit.score)}</span></div>
            <p class="passage">${hit.text}</p>
          </li>`)}
        </ol>`}`}
    </section>`;
  }

  render() {
    return html`${this.renderCollections()}${this.selected === null ? nothing : html`${this.renderAggregate()}${this.renderDocuments()}`}${this.renderSearch()}`;
  }
}
