// <console-wf-execution>: one execution (GET /api/admin/executions/{id}):
// its status and error, what it waits for (event or timer, deadline, signals
// buffered), the step timeline (each step's type, status, times, duration and
// error), its inputs and outputs, and, while it waits for an event, the
// signed-resume test form.
import { LitElement, css, html, nothing } from 'lit';
import { format } from '../../i18n.ts';
import type { SectionContext } from '../contract.ts';
import { shared } from '../../ui/styles.ts';
import '../../ui/status-badge.ts';
import '../../ui/table.ts';
import type { Column } from '../../ui/table.ts';
import './signed-resume.ts';
import { WORKFLOWS_STRINGS, type WorkflowsStrings } from './strings.ts';
import { statusTone } from './tones.ts';

export interface StepRecord {
  step_id: string; type: string; status: string; started_at: string; finished_at: string | null; duration_ms: number | null; error: string | null;
}
export interface Execution {
  execution_id: string; workflow_name: string; workflow_version: number; status: string; error: string | null;
  current_step: string | null; context: Record<string, unknown>; pending_events: string[];
  wait: { step_id: string; event_type: string | null; deadline: string } | null; buffered_signals: number; steps: StepRecord[];
  created_at: string; finished_at: string | null;
}

export class ExecutionView extends LitElement {
  static properties = { context: { attribute: false }, execution: { attribute: false } };
  declare context: SectionContext | undefined;
  declare execution: Execution | null;

  static styles = [shared, css`
    h3 { font-size: 1rem; margin: 1rem 0 0.4rem; }
    pre { white-space: pre-wrap; word-break: break-word; background: var(--surface); border: 1px solid var(--border); border-radius: 6px; padding: 0.5rem; font-size: 0.85rem; max-height: 20rem; overflow: auto; }
    .error { color: var(--error); }
  `];

  constructor() {
    super();
    this.execution = null;
  }

  private get t(): WorkflowsStrings { return WORKFLOWS_STRINGS[this.context?.locale ?? 'en']; }

  private renderWait(e: Execution) {
    if (!e.wait) return nothing;
    const t = this.t;
    const when = new Intl.DateTimeFormat(this.context?.locale, { dateStyle: 'short', timeStyle: 'medium' });
    const what = e.wait.event_type ? format(t.waitingFor, { step: e.wait.step_id, event: e.wait.event_type }) : format(t.waitingForTimer, { step: e.wait.step_id });
    return html`<p>${what}, ${format(t.until, { time: when.format(new Date(e.wait.deadline)) })}</p>`;
  }

  render() {
    const e = this.execution;
    if (!e) return nothing;
    const t = this.t;
    const when = new Intl.DateTimeFormat(this.context?.locale, { dateStyle: 'short', timeStyle: 'medium' });
    const columns: Column<StepRecord>[] = [
      { label: t.step, cell: (s) => s.step_id },
      { label: t.type, cell: (s) => s.type },
      { label: t.status, cell: (s) => html`<console-status tone=${statusTone(s.status)}>${t.stepStatuses[s.status] ?? s.status}</console-status>` },
      { label: t.started, cell: (s) => when.format(new Date(s.started_at)) },
      { label: t.duration, cell: (s) => (s.duration_ms === null ? t.none : `${s.duration_ms} ms`), numeric: true },
      { label: t.error, cell: (s) => (s.error ? html`<span class="error">${s.error}</span>` : t.none) },
    ];
    const resumable = e.status === 'waiting' && e.wait?.event_type && !e.wait.event_type.includes('*')
      && e.steps.some((s) => s.step_id === e.wait!.step_id && s.type === 'WAIT');
    return html`<dl>
        <dt>${t.workflow}</dt><dd>${e.workflow_name} (${t.version} ${e.workflow_version})</dd>
        <dt>${t.status}</dt><dd><console-status tone=${statusTone(e.status)}>${t.statuses[e.status] ?? e.status}</console-status></dd>
        <dt>${t.started}</dt><dd>${when.format(new Date(e.created_at))}</dd>
        <dt>${t.finished}</dt><dd>${e.finished_at ? when.format(new Date(e.finished_at)) : t.none}</dd>
      </dl>
      ${e.error ? html`<p class="error">${format(t.failedWith, { error: e.error })}</p>` : nothing}
      ${this.renderWait(e)}
      ${e.buffered_signals > 0 ? html`<p>${format(t.bufferedSignals, { count: e.buffered_signals })}</p>` : nothing}
      <h3>${t.timeline}</h3>
      <console-table hide-caption .caption=${t.timeline} .empty=${t.noExecutions} .columns=${columns} .rows=${e.steps}></console-table>
      <h3>${t.outputs}</h3>
      <pre tabindex="0" role="region" aria-label=${t.outputs}>${JSON.stringify(e.context, null, 2)}</pre>
      ${resumable ? html`<h3>${t.resumeTitle}</h3>
        <console-wf-signed-resume .context=${this.context} .executionId=${e.execution_id} .eventType=${e.wait!.event_type!}></console-wf-signed-resume>` : nothing}`;
  }
}
if (!customElements.get('console-wf-execution')) customElements.define('console-wf-execution', ExecutionView);
