// <console-sources-schedule>: the source's schedule (GET/PUT/DELETE
// /api/v1/sources/{id}/schedule, POST .../pause and .../resume): a 5-field
// cron in an IANA time zone with the missed-run policy; its state, next run
// and last outcome (a skipped occurrence says why); pause, resume and delete
// (after a confirmation).
import { LitElement, html } from 'lit';
import { ApiError } from '../../client.ts';
import { format } from '../../i18n.ts';
import type { SectionContext } from '../contract.ts';
import { confirmDialog } from '../../ui/confirm-dialog.ts';
import '../../ui/status-badge.ts';
import { sourcesStyles } from './styles.ts';
import { SOURCES_STRINGS } from './strings.ts';
import { when, type Schedule, type Source } from './types.ts';

const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

export class SourcesSchedule extends LitElement {
  static properties = { context: { attribute: false }, source: { attribute: false }, schedule: { state: true }, loaded: { state: true }, busy: { state: true } };
  declare context: SectionContext;
  declare source: Source;
  declare schedule: Schedule | null;
  declare loaded: boolean;
  declare busy: boolean;
  static styles = sourcesStyles;

  constructor() {
    super();
    this.schedule = null;
    this.loaded = false;
    this.busy = false;
  }

  private get t() { return SOURCES_STRINGS[this.context.locale]; }
  private get base() { return `/api/v1/sources/${this.source.id}/schedule`; }

  protected willUpdate(changed: Map<PropertyKey, unknown>): void {
    const before = changed.get('source') as Source | undefined;
    if (changed.has('source') && (!before || before.id !== this.source.id)) void this.load(this.source.id);
  }

  private async load(sourceId: string): Promise<void> {
    this.loaded = false;
    this.schedule = null;
    const found = await this.context.api.get<Schedule>(this.base, { quiet: true }).catch((err: unknown) => {
      if (!(err instanceof ApiError && err.status === 404)) this.context.announce(err instanceof Error ? err.message : String(err));
      return null;
    });
    if (sourceId !== this.source.id) return;
    this.schedule = found;
    this.loaded = true;
  }

  private async act(call: () => Promise<Schedule | null>, message: (s: Schedule | null) => string): Promise<void> {
    this.busy = true;
    try {
      this.schedule = await call();
      this.context.announce(message(this.schedule));
    } catch { /* shown by the shell */ } finally {
      this.busy = false;
    }
  }

  private save(event: Event): void {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    const body = { cron: String(data.get('cron')).trim(), timezone: String(data.get('timezone')).trim(), missed_run_policy: String(data.get('missed_run_policy')) };
    const locale = this.context.locale;
    void this.act(() => this.context.api.put<Schedule>(this.base, body), (s) => format(this.t.scheduleSaved, { next: when(s?.next_run_at ?? null, locale) }));
  }

  private async deleteSchedule(): Promise<void> {
    const t = this.t;
    if (!(await confirmDialog({ message: format(t.deleteScheduleConfirm, { name: this.source.name }), confirmLabel: t.confirmDelete, cancelLabel: t.cancel }))) return;
    await this.act(async () => { await this.context.api.delete(this.base); return null; }, () => t.scheduleDeleted);
  }

  render() {
    const t = this.t;
    const locale = this.context.locale;
    const s = this.schedule;
    if (!this.loaded) return html`<section class="panel" aria-busy="true"><h3>${t.scheduleTitle}</h3></section>`;
    return html`<section class="panel" aria-labelledby="schedule-heading">
      <h3 id="schedule-heading">${t.scheduleTitle}</h3>
      ${s ? html`<dl>
          <dt>${t.status}</dt><dd><console-status tone=${s.paused ? 'neutral' : 'ok'}>${s.paused ? t.paused : t.scheduled}</console-status></dd>
          <dt>${t.nextRun}</dt><dd>${when(s.next_run_at, locale)}</dd>
          <dt>${t.lastOutcome}</dt><dd>${s.last_outcome ?? '—'}</dd>
        </dl>
        <div class="actions">
          ${s.paused
            ? html`<button type="button" ?disabled=${this.busy} @click=${() => void this.act(() => this.context.api.post<Schedule>(`${this.base}/resume`), (r) => format(t.scheduleResumed, { next: when(r?.next_run_at ?? null, locale) }))}>${t.resume}</button>`
            : html`<button type="button" ?disabled=${this.busy} @click=${() => void this.act(() => this.context.api.post<Schedule>(`${this.base}/pause`), () => t.schedulePaused)}>${t.pause}</button>`}
          <button type="button" class="danger" ?disabled=${this.busy} @click=${() => void this.deleteSchedule()}>${t.deleteSchedule}</button>
        </div>` : html`<p class="muted">${t.noSchedule}</p>`}
      <form aria-label=${t.scheduleTitle} @submit=${(e: Event) => this.save(e)}>
        <div class="row">
          <div class="field"><label for="cron">${t.cron}</label>
            <input id="cron" name="cron" required aria-describedby="cron-hint" .value=${s?.cron ?? '0 3 * * *'}>
            <p class="hint" id="cron-hint">${t.cronHint}</p></div>
          <div class="field"><label for="timezone">${t.timezone}</label>
            <input id="timezone" name="timezone" required aria-describedby="timezone-hint" .value=${s?.timezone ?? browserZone()}>
            <p class="hint" id="timezone-hint">${t.timezoneHint}</p></div>
          <div class="field"><label for="missed">${t.missedPolicy}</label>
            <select id="missed" name="missed_run_policy">${(['skip', 'catch_up_once'] as const).map((p) =>
              html`<option value=${p} ?selected=${(s?.missed_run_policy ?? 'skip') === p}>${t[p]}</option>`)}</select></div>
        </div>
        <div class="actions"><button type="submit" class="primary" ?disabled=${this.busy}>${t.saveSchedule}</button></div>
      </form>
    </section>`;
  }
}
if (!customElements.get('console-sources-schedule')) customElements.define('console-sources-schedule', SourcesSchedule);
