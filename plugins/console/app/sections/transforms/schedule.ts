// <console-transform-schedule>: a transform's schedule (from its detail):
// cron, time zone, missed-run policy, state, next and last run, with Pause,
// Resume and Delete (after a confirm dialog); the form creates or replaces it
// (PUT /api/v1/transforms/{id}/schedule, …/pause, …/resume, DELETE …).
// Fires `changed` when the detail should be read again.
import { LitElement, html } from 'lit';
import { format } from '../../i18n.ts';
import type { SectionContext } from '../contract.ts';
import { confirmDialog } from '../../ui/confirm-dialog.ts';
import '../../ui/status-badge.ts';
import { TRANSFORMS_STRINGS, type TransformsStrings } from './strings.ts';
import { transformsStyles } from './styles.ts';
import type { Detail } from './types.ts';

export class TransformSchedule extends LitElement {
  static properties = { context: { attribute: false }, detail: { attribute: false }, busy: { state: true } };
  declare context: SectionContext | undefined;
  declare detail: Detail;
  declare busy: boolean;
  static styles = transformsStyles;

  constructor() {
    super();
    this.busy = false;
  }

  private get t(): TransformsStrings { return TRANSFORMS_STRINGS[this.context?.locale ?? 'en']; }
  private get base(): string { return `/api/v1/transforms/${this.detail.id}/schedule`; }

  private when(value: string | null): string {
    if (!value) return this.t.none;
    return new Intl.DateTimeFormat(this.context?.locale, { dateStyle: 'short', timeStyle: 'short' }).format(new Date(value));
  }

  private async act(call: () => Promise<unknown>, message: string): Promise<void> {
    this.busy = true;
    try {
      await call();
      this.context!.announce(message);
      this.dispatchEvent(new CustomEvent('changed'));
    } catch { /* shown by the shell */ } finally {
      this.busy = false;
    }
  }

  private save(event: Event): void {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    if (!form.reportValidity()) return;
    const data = new FormData(form);
    const body = { cron: String(data.get('cron')).trim(), timezone: String(data.get('timezone')).trim() || 'UTC', missed_run_policy: String(data.get('missed_run_policy')), paused: this.detail.schedule?.paused ?? false };
    void this.act(() => this.context!.api.put(this.base, body), this.t.scheduleSaved);
  }

  private async deleteSchedule(): Promise<void> {
    const t = this.t;
    if (!(await confirmDialog({ message: format(t.deleteScheduleConfirm, { name: this.detail.name }), confirmLabel: t.deleteSchedule, cancelLabel: t.cancel }))) return;
    await this.act(() => this.context!.api.delete(this.base), t.scheduleDeleted);
  }

  render() {
    const t = this.t;
    const s = this.detail.schedule;
    return html`<section aria-labelledby="schedule-heading">
      <h3 id="schedule-heading">${t.schedule}</h3>
      ${s ? html`<dl>
          <dt>${t.state}</dt><dd><console-status tone=${s.paused ? 'neutral' : 'ok'}>${s.paused ? t.paused : t.activeSchedule}</console-status></dd>
          <dt>${t.cron}</dt><dd><code>${s.cron}</code> (${s.timezone})</dd>
          <dt>${t.missedPolicy}</dt><dd>${t.policies[s.missed_run_policy] ?? s.missed_run_policy}</dd>
          <dt>${t.nextRun}</dt><dd>${this.when(s.next_run_at)}</dd>
          <dt>${t.lastRun}</dt><dd>${this.when(s.last_run_at)}${s.last_outcome ? ` (${s.last_outcome})` : ''}</dd>
        </dl>
        <div class="actions">
          ${s.paused
            ? html`<button type="button" ?disabled=${this.busy} @click=${() => this.act(() => this.context!.api.post(`${this.base}/resume`), t.scheduleResumed)}>${t.resume}</button>`
            : html`<button type="button" ?disabled=${this.busy} @click=${() => this.act(() => this.context!.api.post(`${this.base}/pause`), t.schedulePaused)}>${t.pause}</button>`}
          <button type="button" class="danger" ?disabled=${this.busy} @click=${() => this.deleteSchedule()}>${t.deleteSchedule}</button>
        </div>` : html`<p class="muted">${t.noSchedule}</p>`}
      <form aria-label=${t.schedule} @submit=${this.save}>
        <div class="grid">
          <div class="field"><label for="cron">${t.cron}</label>
            <input id="cron" name="cron" required minlength="9" autocomplete="off" aria-describedby="cron-hint" .value=${s?.cron ?? '0 6 * * *'}>
            <p id="cron-hint" class="hint">${t.cronHint}</p></div>
          <div class="field"><label for="timezone">${t.timezone}</label>
            <input id="timezone" name="timezone" autocomplete="off" .value=${s?.timezone ?? 'UTC'}></div>
          <div class="field"><label for="policy">${t.missedPolicy}</label>
            <select id="policy" name="missed_run_policy">${['skip', 'catch_up_once'].map((p) => html`<option value=${p} ?selected=${(s?.missed_run_policy ?? 'skip') === p}>${t.policies[p]}</option>`)}</select></div>
        </div>
        <div class="actions"><button type="submit" ?disabled=${this.busy}>${s ? t.saveSchedule : t.createSchedule}</button></div>
      </form>
    </section>`;
  }
}

if (!customElements.get('console-transform-schedule')) customElements.define('console-transform-schedule', TransformSchedule);
