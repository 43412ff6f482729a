// <console-pipeline-step-editor>: the forms beside the graph that edit a
// pipeline's current definition as the API allows: add a step (inline SQL
// with its output table, the steps and datasets it reads: PUT the steps),
// connect two steps (the reader's inputs get the other step: PATCH
// /steps/{id}), and save the definition as a new immutable version (POST
// /versions, which refuses an invalid DAG). It fires `changed` with the
// pipeline the API answered and `version-saved`.
import { LitElement, css, html, nothing } from 'lit';
import { format } from '../../i18n.ts';
import type { SectionContext } from '../contract.ts';
import { formStyles } from '../../ui/form-styles.ts';
import { shared } from '../../ui/styles.ts';
import type { PipelinesStrings } from './strings.ts';
import type { Pipeline, Step } from './types.ts';

export class PipelineStepEditor extends LitElement {
  static properties = { context: { attribute: false }, pipeline: { attribute: false }, t: { attribute: false }, busy: { state: true } };
  declare context: SectionContext;
  declare pipeline: Pipeline;
  declare t: PipelinesStrings;
  declare busy: boolean;

  constructor() {
    super();
    this.busy = false;
  }

  static styles = [shared, formStyles, css`
    h4 { margin: 1rem 0 0.5rem; font-size: 0.95rem; }
    h4:first-child { margin-top: 0; }
    form { max-width: none; }
    .field { align-content: start; }
    .field input, .field select, .field textarea { width: 100%; box-sizing: border-box; }
    .pair { display: grid; grid-template-columns: repeat(auto-fit, minmax(8rem, 1fr)); gap: 0.5rem; }
  `];

  private path(suffix = ''): string { return `/api/v1/pipelines/${this.pipeline.id}${suffix}`; }

  private async act(work: () => Promise<void>): Promise<void> {
    this.busy = true;
    try { await work(); } catch { /* the client shows the API's message */ } finally { this.busy = false; }
  }

  private changed(pipeline: Pipeline, message: string): void {
    this.dispatchEvent(new CustomEvent('changed', { detail: pipeline }));
    this.context.announce(message);
  }

  private addStep(event: Event): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const data = new FormData(form);
    const text = (key: string) => String(data.get(key) ?? '').trim();
    const datasets = text('datasets').split(/[\s,]+/).filter(Boolean);
    const step: Step = { id: text('id'), sql: text('sql'), output: text('output'), inputs: [...data.getAll('reads').map(String), ...datasets] };
    if (text('name')) step.name = text('name');
    return this.act(async () => {
      const updated = await this.context.api.put<Pipeline>(this.path(), { steps: [...this.pipeline.steps, step] });
      form.reset();
      this.changed(updated, format(this.t.stepAdded, { step: step.id }));
    });
  }

  private connect(event: Event): Promise<void> {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    const from = String(data.get('from'));
    const to = this.pipeline.steps.find((s) => s.id === String(data.get('to')));
    if (!to) return Promise.resolve();
    if ((to.inputs ?? []).includes(from)) {
      this.context.announce(format(this.t.alreadyConnected, { from, to: to.id }));
      return Promise.resolve();
    }
    return this.act(async () => {
      const updated = await this.context.api.patch<Pipeline>(this.path(`/steps/${encodeURIComponent(to.id)}`), { inputs: [...(to.inputs ?? []), from] });
      this.changed(updated, format(this.t.connected, { from, to: to.id }));
    });
  }

  private saveVersion(event: Event): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const note = String(new FormData(form).get('note') ?? '').trim();
    return this.act(async () => {
      const saved = await this.context.api.post<{ version: number }>(this.path('/versions'), { note });
      form.reset();
      this.dispatchEvent(new CustomEvent('version-saved'));
      this.context.announce(format(this.t.versionSaved, { version: saved.version }));
    });
  }

  render() {
    const t = this.t;
    const steps = this.pipeline.steps;
    return html`
      <h4 id="add-heading">${t.addStep}</h4>
      <form aria-labelledby="add-heading" @submit=${this.addStep}>
        <div class="pair">
          <div class="field"><label for="step-id">${t.stepId}<span class="req" aria-hidden="true">*</span></label>
            <input id="step-id" name="id" required pattern="[A-Za-z0-9_\\-]{1,63}" autocomplete="off" aria-describedby="step-id-hint">
            <p id="step-id-hint" class="hint">${t.stepIdHint}</p></div>
          <div class="field"><label for="step-name">${t.stepName}</label><input id="step-name" name="name" maxlength="200" autocomplete="off"></div>
        </div>
        <div class="field"><label for="step-sql">${t.sql}<span class="req" aria-hidden="true">*</span></label>
          <textarea id="step-sql" name="sql" required rows="3" aria-describedby="step-sql-hint"></textarea>
          <p id="step-sql-hint" class="hint">${t.sqlHint}</p></div>
        <div class="field"><label for="step-output">${t.outputTable}<span class="req" aria-hidden="true">*</span></label>
          <input id="step-output" name="output" required pattern="[A-Za-z0-9_]{1,63}" autocomplete="off" aria-describedby="step-output-hint">
          <p id="step-output-hint" class="hint">${t.outputHint}</p></div>
        ${steps.length ? html`<fieldset><legend>${t.readsSteps}</legend>
          <div class="inline">${steps.map((s) => html`<label class="check"><input type="checkbox" name="reads" value=${s.id}>${s.id}</label>`)}</div>
        </fieldset>` : nothing}
        <div class="field"><label for="step-datasets">${t.inputDatasets}</label>
          <input id="step-datasets" name="datasets" autocomplete="off" aria-describedby="step-datasets-hint">
          <p id="step-datasets-hint" class="hint">${t.datasetsHint}</p></div>
        <div class="actions"><button type="submit" class="primary" ?disabled=${this.busy}>${t.addStepButton}</button></div>
      </form>

      <h4 id="connect-heading">${t.connectSteps}</h4>
      ${steps.length < 2 ? html`<p class="muted">${t.connectNeedsTwo}</p>` : html`<form aria-labelledby="connect-heading" @submit=${this.connect}>
        <div class="pair">
          <div class="field"><label for="connect-from">${t.fromStep}</label>
            <select id="connect-from" name="from">${steps.map((s) => html`<option value=${s.id}>${s.id}</option>`)}</select></div>
          <div class="field"><label for="connect-to">${t.toStep}</label>
            <select id="connect-to" name="to">${steps.map((s, i) => html`<option value=${s.id} ?selected=${i === 1}>${s.id}</option>`)}</select></div>
        </div>
        <p class="hint">${t.connectHint}</p>
        <div class="actions"><button type="submit" ?disabled=${this.busy}>${t.connect}</button></div>
      </form>`}

      <h4 id="version-heading">${t.saveVersion}</h4>
      <form aria-labelledby="version-heading" @submit=${this.saveVersion}>
        <div class="field"><label for="version-note">${t.versionNote}</label><input id="version-note" name="note" maxlength="500" autocomplete="off"></div>
        <p class="hint">${t.saveVersionHint}</p>
        <div class="actions"><button type="submit" ?disabled=${this.busy || steps.length === 0}>${t.saveVersionButton}</button></div>
      </form>`;
  }
}
if (!customElements.get('console-pipeline-step-editor')) customElements.define('console-pipeline-step-editor', PipelineStepEditor);
