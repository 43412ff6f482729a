// The Sources section (admins and pipeline editors): the tenant's sources
// (GET /api/v1/sources) with their state and last run (GET
// .../{id}/sync/status), a new source from a pattern (create.ts; the patterns
// from GET /api/v1/patterns/discover) and one source opened (detail.ts:
// credentials, discovery, streams, runs with Sync now and live status,
// schedule).
import { html, nothing } from 'lit';
import { format } from '../../i18n.ts';
import type { SectionContext } from '../contract.ts';
import { TenantSection } from '../../ui/tenant-section.ts';
import '../../ui/row-button.ts';
import '../../ui/status-badge.ts';
import '../../ui/table.ts';
import type { Column } from '../../ui/table.ts';
import './create.ts';
import './detail.ts';
import { sourcesStyles } from './styles.ts';
import { SOURCES_STRINGS, type SourcesStrings } from './strings.ts';
import { RUN_TONES, statusLabel, when, type Pattern, type Run, type Source, type SyncStatus } from './types.ts';

export default class SourcesSection extends TenantSection<SourcesStrings> {
  static properties = {
    ...TenantSection.properties,
    sources: { state: true }, lastRuns: { state: true }, patterns: { state: true }, selected: { state: true }, creating: { state: true },
  };
  declare sources: Source[] | null;
  declare lastRuns: Map<string, Run | null>;
  declare patterns: Pattern[];
  declare selected: string | null;
  declare creating: boolean;
  protected strings = SOURCES_STRINGS;
  static styles = sourcesStyles;

  constructor() {
    super();
    this.sources = null;
    this.lastRuns = new Map();
    this.patterns = [];
    this.selected = null;
    this.creating = false;
  }

  protected contextChanged(context: SectionContext): void {
    Object.assign(this, { sources: null, lastRuns: new Map(), patterns: [], selected: null, creating: false });
    void context.api.get<{ items: Pattern[] }>('/api/v1/patterns/discover').then((r) => { if (context === this.context) this.patterns = r.items; }, () => {});
    void this.loadSources(context);
  }

  private async loadSources(context: SectionContext): Promise<void> {
    const listed = await context.api.get<{ items: Source[] }>('/api/v1/sources', { query: { limit: 200 } }).catch(() => null);
    if (context.tenant !== this.context?.tenant) return;
    this.sources = listed?.items ?? [];
    const statuses = await Promise.all(this.sources.map((s) =>
      context.api.get<SyncStatus>(`/api/v1/sources/${s.id}/sync/status`, { quiet: true }).then((r) => [s.id, r.run] as const, () => [s.id, null] as const)));
    if (context.tenant === this.context?.tenant) this.lastRuns = new Map(statuses);
  }

  private replace(source: Source): void {
    const list = this.sources ?? [];
    this.sources = list.some((s) => s.id === source.id) ? list.map((s) => (s.id === source.id ? source : s)) : [...list, source].sort((a, b) => a.name.localeCompare(b.name));
  }

  private created(source: Source): void {
    this.replace(source);
    this.creating = false;
    this.selected = source.id;
  }

  private async runEnded(run: Run): Promise<void> {
    const source = this.sources?.find((s) => s.id === this.selected);
    this.lastRuns = new Map(this.lastRuns).set(source?.id ?? '', run);
    if (source) {
      const fresh = await this.context!.api.get<Source>(`/api/v1/sources/${source.id}`, { quiet: true }).catch(() => null);
      if (fresh) this.replace(fresh);
    }
  }

  render() {
    const t = this.t;
    const locale = this.context?.locale ?? 'en';
    const columns: Column<Source>[] = [
      { label: t.name, cell: (s) => html`<console-row-button variant="link" label=${format(t.open, { name: s.name })}
        @click=${() => { this.selected = s.id; this.creating = false; }}>${s.name}</console-row-button>` },
      { label: t.pattern, cell: (s) => this.patterns.find((p) => p.id === s.pattern_id)?.name ?? s.pattern_id },
      { label: t.state, cell: (s) => html`<console-status tone=${s.state === 'active' ? 'ok' : 'neutral'}>${statusLabel(t, s.state)}</console-status>` },
      { label: t.lastRun, cell: (s) => {
        const run = this.lastRuns.get(s.id);
        return run ? html`<console-status tone=${RUN_TONES[run.status]}>${statusLabel(t, run.status)}</console-status> ${when(run.created_at, locale)}` : t.never;
      } },
    ];
    const selected = this.sources?.find((s) => s.id === this.selected);
    return html`<section aria-labelledby="sources-heading">
      <h2 id="sources-heading">${t.sources}</h2>
      ${this.sources ? html`<console-table hide-caption caption=${t.sources} .columns=${columns} .rows=${this.sources} empty=${t.noSources}></console-table>` : html`<p>${t.loading}</p>`}
      <div class="actions"><button type="button" aria-expanded=${String(this.creating)} @click=${() => { this.creating = !this.creating; }}>${t.newSource}</button></div>
      ${this.creating && this.context ? html`<console-sources-create .context=${this.context} .patterns=${this.patterns}
        @source-created=${(e: CustomEvent<{ source: Source }>) => this.created(e.detail.source)}></console-sources-create>` : nothing}
    </section>
    ${selected && this.context ? html`<console-sources-detail .context=${this.context} .source=${selected}
      @source-changed=${(e: CustomEvent<{ source: Source }>) => this.replace(e.detail.source)}
      @run-ended=${(e: CustomEvent<{ run: Run }>) => void this.runEnded(e.detail.run)}
      @source-closed=${() => { this.selected = null; }}></console-sources-detail>` : nothing}`;
  }
}
