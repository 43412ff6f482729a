// The Overview section: the platform's readiness and version (public), the
// tenant's usage this week (admin or staff), the job queues and dead letters
// (the super-admin: queues serve every tenant), and the tenant's recent
// events (admin). Each panel is shown only to the roles its API allows.
import { css, html, nothing } from 'lit';
import { TenantSection } from '../../ui/tenant-section.ts';
import { format } from '../../i18n.ts';
import { shared } from '../../ui/styles.ts';
import '../../ui/status-badge.ts';
import '../../ui/table.ts';
import type { Column } from '../../ui/table.ts';
import { OVERVIEW_STRINGS, type OverviewStrings } from './strings.ts';

interface Readiness { status: 'ready' | 'unavailable'; checks: Record<string, string> }
interface Status { version: string; uptime_seconds: number }
interface Usage { since: string; counts: Record<string, number> }
interface Queue { queue: string; queued: number; active: number; deferred: number; failed: number; dead_letter: boolean }
interface Queues { items: Queue[]; totals: { queued: number; active: number; deferred: number; failed: number; dead_letters: number } }
interface StreamEvent { id: string; type: string; source: string; time: string }

const USAGE_KEYS = ['documents', 'chat_sessions', 'occurrences'] as const;

function duration(seconds: number, locale: string): string {
  const units: [Intl.RelativeTimeFormatUnit, number][] = [['day', 86_400], ['hour', 3600], ['minute', 60]];
  for (const [unit, size] of units) {
    if (seconds >= size) return new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'long' }).format(Math.floor(seconds / size));
  }
  return new Intl.NumberFormat(locale, { style: 'unit', unit: 'second', unitDisplay: 'long' }).format(seconds);
}

export default class OverviewSection extends TenantSection<OverviewStrings> {
  static properties = {
    readiness: { state: true }, status: { state: true }, usage: { state: true }, queues: { state: true }, events: { state: true }, loading: { state: true },
  };
  declare readiness: Readiness | null;
  declare status: Status | null;
  declare usage: Usage | null;
  declare queues: Queues | null;
  declare events: StreamEvent[] | null;
  declare loading: boolean;

  static styles = [shared, css`
    .head { display: flex; justify-content: flex-end; margin-top: -0.5rem; }
    .checks { margin-top: 0.5rem; }
    .totals { margin-bottom: 1rem; }
  `];

  protected strings = OVERVIEW_STRINGS;

  constructor() {
    super();
    this.readiness = null;
    this.status = null;
    this.usage = null;
    this.queues = null;
    this.events = null;
    this.loading = false;
  }


  private holds(...roles: string[]): boolean {
    const held = this.context?.roles;
    return held === '*' || (held ?? []).some((role) => roles.includes(role));
  }

  private get superAdmin(): boolean { return this.context?.me.kind === 'super_admin'; }

  /** A new tenant (or the first context) is new data; a new locale only re-renders. */
  protected contextChanged(): void {
    void this.load();
  }

  async load(announce = false): Promise<void> {
    const context = this.context;
    if (!context) return;
    this.loading = true;
    const { api } = context;
    const quiet = { quiet: true } as const;
    const [readiness, status, usage, queues, events] = await Promise.all([
      api.get<Readiness>('/readyz', { anyStatus: true, quiet: true }).catch(() => null),
      api.get<Status>('/api/v1/status', quiet).catch(() => null),
      this.holds('admin', 'staff') && context.tenant ? api.get<Usage>('/api/admin/usage').catch(() => null) : null,
      this.superAdmin ? api.get<Queues>('/api/v1/queues').catch(() => null) : null,
      this.holds('admin') && context.tenant
        ? api.get<{ items: StreamEvent[] }>('/api/admin/triggers/events/recent', { query: { limit: 10 }, quiet: true }).then((r) => r.items, () => null)
        : null,
    ]);
    Object.assign(this, { readiness, status, usage, queues, events, loading: false });
    if (announce) context.announce(this.t.refreshed);
  }

  private renderPlatform() {
    const t = this.t;
    const r = this.readiness;
    const locale = this.context?.locale ?? 'en';
    return html`<section class="card" aria-labelledby="platform">
      <h2 id="platform">${t.platform}</h2>
      <dl>
        <dt>${t.readiness}</dt>
        <dd>${r ? html`<console-status tone=${r.status === 'ready' ? 'ok' : 'error'}>${r.status === 'ready' ? t.ready : t.unavailable}</console-status>` : t.loading}</dd>
        <dt>${t.version}</dt>
        <dd>${this.status ? html`${this.status.version} <span class="muted">(${format(t.uptime, { time: duration(this.status.uptime_seconds, locale) })})</span>` : t.loading}</dd>
      </dl>
      ${r ? html`<console-table class="checks" .caption=${t.checks} .empty=${''}
        .columns=${[{ label: t.check, cell: (c: [string, string]) => c[0] }, { label: t.state, cell: (c: [string, string]) => html`<console-status tone=${c[1] === 'ok' ? 'ok' : 'error'}>${c[1] === 'ok' ? t.ok : t.failed}</console-status>` }] as Column<[string, string]>[]}
        .rows=${Object.entries(r.checks)}></console-table>` : nothing}
    </section>`;
  }

  private renderUsage() {
    if (!this.usage) return nothing;
    const t = this.t;
    const since = new Intl.DateTimeFormat(this.context?.locale, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(this.usage.since));
    const keys = USAGE_KEYS.filter((key) => key in this.usage!.counts);
    return html`<section aria-labelledby="usage">
      <h2 id="usage">${t.usage}</h2>
      <p class="muted">${format(t.usageSince, { date: since })}</p>
      <div class="cards">${keys.map((key) => html`<div class="card"><h3 class="muted">${t[key]}</h3><p class="figure">${this.usage!.counts[key]}</p></div>`)}</div>
    </section>`;
  }

  private renderQueues() {
    if (!this.queues) return nothing;
    const t = this.t;
    const { totals } = this.queues;
    const waiting = this.queues.items.filter((q) => q.queued + q.active + q.deferred + q.failed > 0);
    const figures: [string, number][] = [[t.queued, totals.queued], [t.active, totals.active], [t.failedJobs, totals.failed], [t.deadLetters, totals.dead_letters]];
    const columns: Column<Queue>[] = [
      { label: t.queue, cell: (q) => q.dead_letter ? html`${q.queue} <console-status tone="warn">${t.deadLetters}</console-status>` : q.queue },
      { label: t.queued, cell: (q) => q.queued, numeric: true },
      { label: t.active, cell: (q) => q.active, numeric: true },
      { label: t.deferred, cell: (q) => q.deferred, numeric: true },
      { label: t.failedJobs, cell: (q) => q.failed, numeric: true },
    ];
    return html`<section aria-labelledby="queues">
      <h2 id="queues">${t.queues}</h2>
      <div class="cards totals">${figures.map(([label, n]) => html`<div class="card"><h3 class="muted">${label}</h3><p class="figure">${n}</p></div>`)}</div>
      <console-table hide-caption .caption=${t.queues} .empty=${t.noJobs} .columns=${columns} .rows=${waiting}></console-table>
    </section>`;
  }

  private renderEvents() {
    if (!this.events) return nothing;
    const t = this.t;
    const when = new Intl.DateTimeFormat(this.context?.locale, { dateStyle: 'short', timeStyle: 'medium' });
    const columns: Column<StreamEvent>[] = [
      { label: t.time, cell: (e) => when.format(new Date(e.time)) },
      { label: t.type, cell: (e) => e.type },
      { label: t.source, cell: (e) => e.source },
    ];
    return html`<section aria-labelledby="events">
      <h2 id="events">${t.events}</h2>
      <console-table hide-caption .caption=${t.events} .empty=${t.noEvents} .columns=${columns} .rows=${this.events}></console-table>
    </section>`;
  }

  render() {
    const t = this.t;
    return html`<div class="head"><button type="button" ?disabled=${this.loading} @click=${() => this.load(true)}>${t.refresh}</button></div>
      <div class="cards">${this.renderPlatform()}</div>
      ${this.renderUsage()}${this.renderQueues()}${this.renderEvents()}`;
  }
}
