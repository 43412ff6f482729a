// <console-pipeline-detail>: one pipeline: its state and actions (Validate,
// Sandbox run, Activate, Pause, Run now), its DAG drawn (graph.ts) beside
// the step editor (step-editor.ts), the validation's errors, the latest
// sandbox run's step results with their samples, and its versions and runs
// (history.ts). A run started here is followed with the orchestrator's
// long-poll (POST /temporal/workflows/{id}/wait) until it ends. It fires
// `updated` with the pipeline whenever the API answers a new state.
import { LitElement, css, html, nothing } from 'lit';
import { format } from '../../i18n.ts';
import type { SectionContext } from '../contract.ts';
import { formStyles } from '../../ui/form-styles.ts';
import { shared } from '../../ui/styles.ts';
import '../../ui/status-badge.ts';
import './graph.ts';
import './history.ts';
import './run-steps.ts';
import './step-editor.ts';
import type { PipelinesStrings } from './strings.ts';
import { stateTone, type AvailableTransform, type DagValidation, type List, type Pipeline, type Run, type Version } from './types.ts';

/** Long-polls of one run before the page stops following it (each up to the API's longest wait). */
const WAITS = 20;
const EDITORS = ['admin', 'pipeline_editor'];

interface Workflow { workflow_id: string; status: string; is_terminal: boolean }

export class PipelineDetail extends LitElement {
  static properties = {
    context: { attribute: false }, pipelineId: { attribute: false }, t: { attribute: false },
    pipeline: { state: true }, versions: { state: true }, runs: { state: true }, transforms: { state: true },
    validation: { state: true }, running: { state: true }, busy: { state: true }, force: { state: true },
  };
  declare context: SectionContext;
  declare pipelineId: string;
  declare t: PipelinesStrings;
  declare pipeline: Pipeline | null;
  declare versions: Version[];
  declare runs: Run[];
  declare transforms: Map<string, AvailableTransform>;
  declare validation: DagValidation | null;
  /** The kind of run being followed, if any. */
  declare running: 'sandbox' | 'production' | null;
  declare busy: boolean;
  declare force: boolean;
  private loadedId: string | undefined;
  private loadedTenant: string | null | undefined;

  constructor() {
    super();
    this.pipeline = null;
    this.versions = [];
    this.runs = [];
    this.transforms = new Map();
    this.validation = null;
    this.running = null;
    this.busy = false;
    this.force = false;
  }

  static styles = [shared, formStyles, css`
    .panel { border: 1px solid var(--border); border-radius: 8px; padding: 0 1rem 1rem; margin-top: 1.25rem; }
    .panel-head { display: flex; justify-content: space-between; align-items: baseline; gap: 0.75rem; flex-wrap: wrap; }
    .panel-head h2 { overflow-wrap: anywhere; margin-right: auto; }
    h3 { font-size: 1.05rem; margin: 1.25rem 0 0.5rem; }
    .columns { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 1.25rem; }
    @media (max-width: 900px) { .columns { grid-template-columns: minmax(0, 1fr); } }
    .errors li { color: var(--error); overflow-wrap: anywhere; }
    .errors code { font-weight: 600; }
    .bar { display: flex; flex-wrap: wrap; gap: 0.5rem 0.75rem; align-items: center; margin: 0.5rem 0; }
  `];

  private get canEdit(): boolean {
    const roles = this.context.roles;
    return roles === '*' || roles.some((role) => EDITORS.includes(role));
  }

  protected willUpdate(changed: Map<PropertyKey, unknown>): void {
    super.willUpdate(changed);
    if (!this.context || !this.pipelineId) return;
    if (this.loadedId === this.pipelineId && this.loadedTenant === this.context.tenant) return;
    if (this.loadedTenant !== this.context.tenant) void this.loadTransforms();
    this.loadedId = this.pipelineId;
    this.loadedTenant = this.context.tenant;
    this.pipeline = null;
    this.validation = null;
    void this.load();
  }

  private path(suffix = ''): string { return `/api/v1/pipelines/${this.pipelineId}${suffix}`; }

  /** The tenant's transforms: their output datasets draw the edges of steps that name them. */
  private async loadTransforms(): Promise<void> {
    const listed = await this.context.api.get<{ items: AvailableTransform[] }>('/api/v1/pipelines/available-transforms', { query: { limit: 500 }, quiet: true }).catch(() => null);
    const map = new Map<string, AvailableTransform>();
    for (const transform of listed?.items ?? []) { map.set(transform.id, transform); map.set(transform.name, transform); }
    this.transforms = map;
  }

  async load(): Promise<void> {
    const { api } = this.context;
    const [pipeline] = await Promise.all([
      api.get<Pipeline>(this.path()).catch(() => null),
      this.loadHistory(),
    ]);
    if (!pipeline) return;
    const first = !this.pipeline;
    this.setPipeline(pipeline);
    if (!first) return;
    // A pipeline just opened: focus its heading.
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('#detail-heading')?.focus();
  }

  private async loadHistory(): Promise<void> {
    const { api } = this.context;
    const [versions, runs] = await Promise.all([
      api.get<Version[]>(this.path('/versions')).catch(() => null),
      api.get<List<Run>>(this.path('/runs'), { query: { limit: 20 } }).catch(() => null),
    ]);
    if (versions) this.versions = versions;
    if (runs) this.runs = runs.items;
  }

  private setPipeline(pipeline: Pipeline): void {
    this.pipeline = pipeline;
    this.dispatchEvent(new CustomEvent('updated', { detail: pipeline }));
  }

  private async act(work: () => Promise<void>): Promise<void> {
    this.busy = true;
    try { await work(); } catch { /* the client shows the API's message */ } finally { this.busy = false; }
  }

  private validate(): Promise<void> {
    return this.act(async () => {
      this.validation = await this.context.api.post<DagValidation>('/api/v1/pipelines/validate-dag', { pipeline_id: this.pipelineId });
      const reread = await this.context.api.get<Pipeline>(this.path());
      this.setPipeline(reread);
      this.context.announce(this.validation.valid ? this.t.dagValid : format(this.t.dagInvalidCount, { count: this.validation.errors.length }));
    });
  }

  /** Follows a run through the orchestrator's long-poll until it ends (or the page stops waiting). */
  private async follow(workflowId: string): Promise<void> {
    for (let i = 0; i < WAITS; i++) {
      const workflow = await this.context.api.post<Workflow>(`/api/v1/temporal/workflows/${workflowId}/wait`, { timeout_seconds: 30 });
      if (workflow.is_terminal) return;
    }
  }

  private async start(kind: 'sandbox' | 'production'): Promise<void> {
    const { api } = this.context;
    this.running = kind;
    try {
      this.context.announce(kind === 'sandbox' ? this.t.sandboxStarted : this.t.runStarted);
      const started = kind === 'sandbox'
        ? await api.post<{ workflow_id: string }>(this.path('/sandbox'), {})
        : await api.post<{ workflow_id: string }>('/api/v1/temporal/workflows/pipeline', { pipeline_id: this.pipelineId });
      await this.follow(started.workflow_id);
      await this.load();
      const run = this.runs.find((r) => r.id === started.workflow_id);
      if (run) this.context.announce(format(kind === 'sandbox' ? this.t.sandboxEnded : this.t.runEnded, { status: this.t.statuses[run.status] ?? run.status }));
    } catch { /* the client shows the API's message */ } finally {
      this.running = null;
    }
  }

  private activate(): Promise<void> {
    return this.act(async () => {
      const activated = await this.context.api.post<Pipeline>(this.path('/activate'), { force: this.force });
      this.setPipeline(activated);
      this.force = false;
      await this.loadHistory();
      this.context.announce(format(this.t.activated, { name: activated.name, version: activated.active_version ?? '' }));
    });
  }

  private pause(): Promise<void> {
    return this.act(async () => {
      const paused = await this.context.api.post<Pipeline>(this.path('/pause'));
      this.setPipeline(paused);
      this.context.announce(format(this.t.paused, { name: paused.name }));
    });
  }

  private edited(pipeline: Pipeline): void {
    this.setPipeline(pipeline);
    // The definition changed: the last validation no longer describes it.
    this.validation = null;
  }

  private renderValidation() {
    const t = this.t;
    const v = this.validation;
    return html`<h3 id="validation-heading">${t.validation}</h3>
      ${!v ? html`<p class="muted">${t.notValidated}</p>` : v.valid
        ? html`<p><console-status tone="ok">${t.valid}</console-status> ${format(t.order, { order: v.order.join(' → ') })}</p>`
        : html`<p><console-status tone="error">${t.invalid}</console-status></p>
          <ul class="errors" aria-labelledby="validation-heading">${v.errors.map((e) => html`<li><code>${e.code}</code>: ${e.message}</li>`)}</ul>`}`;
  }

  private renderSandbox() {
    const t = this.t;
    const latest = this.runs.find((r) => r.kind === 'sandbox');
    return html`<h3 id="sandbox-heading">${t.sandboxRun}</h3>
      <div aria-live="off" aria-busy=${this.running === 'sandbox' ? 'true' : 'false'}>
        ${this.running === 'sandbox' ? html`<p><console-status tone="neutral">${t.statuses.running}</console-status> ${t.sandboxRunning}</p>` : nothing}
        ${latest ? html`<console-pipeline-run-steps .run=${latest} .t=${t} .caption=${t.sandboxSteps}></console-pipeline-run-steps>`
          : html`<p class="muted">${t.noSandbox}</p>`}
      </div>`;
  }

  render() {
    const t = this.t;
    const p = this.pipeline;
    if (!p) return html`<section class="panel" aria-busy="true"><p>${t.loading}</p></section>`;
    const cycles = (this.validation?.errors ?? []).filter((e) => e.code === 'DAG_CYCLE').map((e) => e.steps ?? []);
    const idle = !this.busy && !this.running;
    return html`<section class="panel" aria-labelledby="detail-heading">
      <div class="panel-head">
        <h2 id="detail-heading" tabindex="-1">${p.name}</h2>
        <span>${t.state}: <console-status tone=${stateTone(p.state)}>${t.states[p.state] ?? p.state}</console-status></span>
        <button type="button" @click=${() => this.dispatchEvent(new CustomEvent('close'))}>${t.close}</button>
      </div>
      ${p.description ? html`<p>${p.description}</p>` : nothing}
      <p class="muted">${format(t.versionsLine, { active: p.active_version ?? t.none, latest: p.latest_version ?? t.none })}</p>
      ${this.canEdit ? html`<div class="bar" role="group" aria-label=${format(t.actionsOf, { name: p.name })}>
        <button type="button" ?disabled=${!idle} @click=${this.validate}>${t.validate}</button>
        <button type="button" ?disabled=${!idle || p.steps.length === 0} @click=${() => this.start('sandbox')}>${t.sandboxButton}</button>
        <button type="button" class="primary" ?disabled=${!idle || p.steps.length === 0} @click=${this.activate}>${t.activate}</button>
        <label class="check"><input type="checkbox" .checked=${this.force} @change=${(e: Event) => { this.force = (e.target as HTMLInputElement).checked; }}>${t.force}</label>
        ${p.state === 'active' ? html`<button type="button" ?disabled=${!idle} @click=${this.pause}>${t.pause}</button>
          <button type="button" ?disabled=${!idle} @click=${() => this.start('production')}>${t.runNow}</button>` : nothing}
      </div>` : nothing}
      ${this.running === 'production' ? html`<p aria-busy="true"><console-status tone="neutral">${t.statuses.running}</console-status> ${t.runRunning}</p>` : nothing}
      <div class="columns">
        <div>
          <h3 id="graph-heading">${t.graph}</h3>
          <console-pipeline-graph .steps=${p.steps} .transforms=${this.transforms} .cycles=${cycles} .t=${t} name=${p.name}></console-pipeline-graph>
        </div>
        ${this.canEdit ? html`<div>
          <h3>${t.editSteps}</h3>
          <console-pipeline-step-editor .context=${this.context} .pipeline=${p} .t=${t}
            @changed=${(e: CustomEvent<Pipeline>) => this.edited(e.detail)} @version-saved=${() => this.load()}></console-pipeline-step-editor>
        </div>` : nothing}
      </div>
      ${this.renderValidation()}
      ${this.renderSandbox()}
      <console-pipeline-history .pipeline=${p} .versions=${this.versions} .runs=${this.runs} .t=${t} locale=${this.context.locale}></console-pipeline-history>
    </section>`;
  }
}
if (!customElements.get('console-pipeline-detail')) customElements.define('console-pipeline-detail', PipelineDetail);
