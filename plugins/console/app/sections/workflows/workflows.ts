// The Workflows section (tenant admins): the workflow definitions (each
// one's steps read-only), the triggers with pause and resume (PUT
// /api/admin/triggers/{name} {active}), the executions filtered by status,
// and an execution's step timeline with the signed-resume test form.
import { css, html, nothing } from 'lit';
import { TenantSection } from '../../ui/tenant-section.ts';
import { format } from '../../i18n.ts';
import { shared } from '../../ui/styles.ts';
import '../../ui/status-badge.ts';
import '../../ui/table.ts';
import '../../ui/row-button.ts';
import type { Column } from '../../ui/table.ts';
import './execution.ts';
import type { Execution } from './execution.ts';
import { WORKFLOWS_STRINGS, type WorkflowsStrings } from './strings.ts';
import { statusTone } from './tones.ts';

interface Definition { name: string; description: string; steps: Record<string, unknown>[]; version: number; updated_at: string }
interface Trigger {
  name: string; kind: string; event_type?: string | null; target_name: string; active: boolean;
  schedule_config?: { cron?: string; timezone?: string } | null; deadman_config?: { watch_event_type?: string } | null;
}
interface ExecutionSummary { execution_id: string; workflow_name: string; status: string; created_at: string; finished_at: string | null }
type List<T> = { items: T[]; total: number };

const STATUSES = ['running', 'waiting', 'completed', 'failed', 'cancelled'] as const;
/** Reloads of an execution after a signed resume, while its workers take the signal and run on. */
const RESUME_RELOADS = 20;

export default class WorkflowsSection extends TenantSection<WorkflowsStrings> {
  static properties = {
    definitions: { state: true }, triggers: { state: true }, executions: { state: true }, status: { state: true },
    shownDefinition: { state: true }, execution: { state: true }, loading: { state: true },
  };
  declare definitions: Definition[] | null;
  declare triggers: Trigger[] | null;
  declare executions: ExecutionSummary[] | null;
  declare status: string;
  declare shownDefinition: Definition | null;
  declare execution: Execution | null;
  declare loading: boolean;

  static styles = [shared, css`
    .head { display: flex; justify-content: flex-end; margin-top: -0.5rem; }
    .bar { display: flex; flex-wrap: wrap; gap: 0.75rem; align-items: end; margin-bottom: 0.5rem; }
    label { display: grid; gap: 0.25rem; font-weight: 600; }
    select { font: inherit; padding: 0.35rem; border: 1px solid var(--border); border-radius: 6px; background: var(--surface); color: var(--fg); }
    h3 { font-size: 1rem; margin: 1rem 0 0.4rem; }
    pre { white-space: pre-wrap; word-break: break-word; background: var(--surface); border: 1px solid var(--border); border-radius: 6px; padding: 0.5rem; font-size: 0.85rem; max-height: 24rem; overflow: auto; }
    .panel { border: 1px solid var(--border); border-radius: 8px; padding: 0 1rem 1rem; margin-top: 1rem; }
    .panel-head { display: flex; justify-content: space-between; align-items: baseline; gap: 1rem; flex-wrap: wrap; }
    .panel h2 { overflow-wrap: anywhere; }
  `];

  protected strings = WORKFLOWS_STRINGS;
  private loadedOnce = false;

  constructor() {
    super();
    this.definitions = null;
    this.triggers = null;
    this.executions = null;
    this.status = '';
    this.shownDefinition = null;
    this.execution = null;
    this.loading = false;
  }

  protected contextChanged(): void {
    // After the first load, a new tenant or new roles drop the execution and definition shown.
    if (this.loadedOnce) { this.execution = null; this.shownDefinition = null; }
    this.loadedOnce = true;
    void this.load();
  }

  async load(announce = false): Promise<void> {
    const context = this.context;
    if (!context?.tenant) return;
    this.loading = true;
    const { api } = context;
    const [definitions, triggers] = await Promise.all([
      api.get<List<Definition>>('/api/admin/workflows', { query: { limit: 500 } }).then((r) => r.items, () => null),
      api.get<List<Trigger>>('/api/admin/triggers', { query: { limit: 500 } }).then((r) => r.items, () => null),
      this.loadExecutions(),
      this.execution ? this.openExecution(this.execution.execution_id, false) : null,
    ]);
    Object.assign(this, { definitions, triggers, loading: false });
    if (announce) context.announce(this.t.refreshed);
  }

  private async loadExecutions(announce = false): Promise<void> {
    const context = this.context;
    if (!context) return;
    const listed = await context.api.get<List<ExecutionSummary>>('/api/admin/executions', { query: { status: this.status || undefined, limit: 50 } }).catch(() => null);
    this.executions = listed?.items ?? null;
    if (announce && listed) context.announce(format(this.t.executionsShown, { count: listed.items.length, status: this.status ? this.t.statuses[this.status] : this.t.anyStatus }));
  }

  private async openExecution(id: string, focus = true): Promise<Execution | null> {
    const found = await this.context?.api.get<Execution>(`/api/admin/executions/${id}`).catch(() => null);
    if (!found) return null;
    this.execution = found;
    if (focus) {
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('#execution-heading')?.focus();
    }
    return found;
  }

  /**
   * After a signed resume: the execution again until it has ended or waits
   * again (its workers take the signal and run on). The form that sent it goes
   * with the wait, so the announcement of the reloaded timeline repeats the
   * form's answer.
   */
  private async afterResume(result: string): Promise<void> {
    const id = this.execution?.execution_id;
    if (!id) return;
    const before = this.execution?.steps.length ?? 0;
    for (let i = 0; i < RESUME_RELOADS; i++) {
      const found = await this.openExecution(id, false);
      if (!found || (found.status !== 'running' && (found.status !== 'waiting' || found.steps.length > before))) break;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    if (this.execution) this.context?.announce(`${result}. ${format(this.t.timelineOf, { id })}: ${this.t.statuses[this.execution.status] ?? this.execution.status}`);
    await this.loadExecutions();
  }

  private async setActive(trigger: Trigger, active: boolean): Promise<void> {
    const updated = await this.context?.api.put<Trigger>(`/api/admin/triggers/${encodeURIComponent(trigger.name)}`, { active }).catch(() => null);
    if (!updated) return;
    this.triggers = (this.triggers ?? []).map((x) => (x.name === updated.name ? updated : x));
    // The row is re-rendered in place: the button keeps the focus, under its new name.
    this.context?.announce(format(active ? this.t.triggerResumed : this.t.triggerPaused, { name: trigger.name }));
  }

  private when(value: string | null): string {
    if (!value) return this.t.none;
    return new Intl.DateTimeFormat(this.context?.locale, { dateStyle: 'short', timeStyle: 'medium' }).format(new Date(value));
  }

  private renderDefinitions() {
    const t = this.t;
    if (!this.definitions) return nothing;
    const columns: Column<Definition>[] = [
      { label: t.name, cell: (d) => html`<console-row-button variant="link" label=${format(t.showDefinition, { name: d.name })}
          @click=${() => { this.shownDefinition = this.shownDefinition?.name === d.name ? null : d; }}>${d.name}</console-row-button>` },
      { label: t.description, cell: (d) => d.description || t.none },
      { label: t.version, cell: (d) => d.version, numeric: true },
      { label: t.stepCount, cell: (d) => d.steps.length, numeric: true },
      { label: t.updated, cell: (d) => this.when(d.updated_at) },
    ];
    const shown = this.shownDefinition;
    return html`<section aria-labelledby="definitions">
      <h2 id="definitions">${t.definitions}</h2>
      <console-table hide-caption .caption=${t.definitions} .empty=${t.noWorkflows} .columns=${columns} .rows=${this.definitions}></console-table>
      ${shown ? html`<h3>${format(t.definitionOf, { name: shown.name, version: shown.version })}</h3>
        <pre tabindex="0" role="region" aria-label=${format(t.showDefinition, { name: shown.name })}>${JSON.stringify(shown.steps, null, 2)}</pre>` : nothing}
    </section>`;
  }

  private triggerSubject(trigger: Trigger): string {
    if (trigger.kind === 'scheduled' && trigger.schedule_config) return `${trigger.schedule_config.cron ?? ''} (${trigger.schedule_config.timezone ?? 'UTC'})`;
    if (trigger.kind === 'deadman' && trigger.deadman_config) return trigger.deadman_config.watch_event_type ?? this.t.none;
    return trigger.event_type ?? this.t.none;
  }

  private renderTriggers() {
    const t = this.t;
    if (!this.triggers) return nothing;
    const columns: Column<Trigger>[] = [
      { label: t.name, cell: (x) => x.name },
      { label: t.kind, cell: (x) => t.kinds[x.kind] ?? x.kind },
      { label: t.event, cell: (x) => this.triggerSubject(x) },
      { label: t.target, cell: (x) => x.target_name },
      { label: t.state, cell: (x) => html`<console-status tone=${x.active ? 'ok' : 'neutral'}>${x.active ? t.active : t.paused}</console-status>` },
      {
        label: t.actions,
        cell: (x) => html`<console-row-button label=${format(x.active ? t.pause : t.resume, { name: x.name })}
          @click=${() => this.setActive(x, !x.active)}>${x.active ? t.pauseLabel : t.resumeLabel}</console-row-button>`,
      },
    ];
    return html`<section aria-labelledby="triggers">
      <h2 id="triggers">${t.triggers}</h2>
      <console-table hide-caption .caption=${t.triggers} .empty=${t.noTriggers} .columns=${columns} .rows=${this.triggers}></console-table>
    </section>`;
  }

  private renderExecutions() {
    const t = this.t;
    const columns: Column<ExecutionSummary>[] = [
      { label: t.execution, cell: (e) => html`<console-row-button variant="link" label=${format(t.open, { id: e.execution_id })}
          @click=${() => this.openExecution(e.execution_id)}>${e.execution_id.slice(0, 8)}</console-row-button>` },
      { label: t.workflow, cell: (e) => e.workflow_name },
      { label: t.status, cell: (e) => html`<console-status tone=${statusTone(e.status)}>${t.statuses[e.status] ?? e.status}</console-status>` },
      { label: t.started, cell: (e) => this.when(e.created_at) },
      { label: t.finished, cell: (e) => this.when(e.finished_at) },
    ];
    return html`<section aria-labelledby="executions">
      <h2 id="executions">${t.executions}</h2>
      <div class="bar">
        <label>${t.statusFilter}
          <select .value=${this.status} @change=${(e: Event) => { this.status = (e.target as HTMLSelectElement).value; void this.loadExecutions(true); }}>
            <option value="" ?selected=${this.status === ''}>${t.anyStatus}</option>
            ${STATUSES.map((s) => html`<option value=${s} ?selected=${this.status === s}>${t.statuses[s]}</option>`)}
          </select></label>
      </div>
      ${this.executions ? html`<console-table hide-caption .caption=${t.executions} .empty=${t.noExecutions} .columns=${columns} .rows=${this.executions}></console-table>` : nothing}
      ${this.execution ? html`<div class="panel">
        <div class="panel-head">
          <h2 id="execution-heading" tabindex="-1">${format(t.timelineOf, { id: this.execution.execution_id })}</h2>
          <button type="button" @click=${() => { this.execution = null; }}>${t.close}</button>
        </div>
        <console-wf-execution .context=${this.context} .execution=${this.execution} @resumed=${(e: CustomEvent<{ result: string }>) => this.afterResume(e.detail.result)}></console-wf-execution>
      </div>` : nothing}
    </section>`;
  }

  render() {
    const t = this.t;
    return html`<div class="head"><button type="button" ?disabled=${this.loading} @click=${() => this.load(true)}>${t.refresh}</button></div>
      ${this.renderDefinitions()}${this.renderTriggers()}${this.renderExecutions()}`;
  }
}
