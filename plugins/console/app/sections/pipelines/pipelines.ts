// The Pipelines section (admins and pipeline editors): the tenant's
// pipelines (GET /api/v1/pipelines), a form that creates one (POST, a
// draft without steps), and the opened pipeline (detail.ts): its DAG drawn
// and edited, validation, sandbox runs, activation, pause, versions and runs.
import { css, html, nothing } from 'lit';
import { format } from '../../i18n.ts';
import type { SectionContext } from '../contract.ts';
import { formStyles } from '../../ui/form-styles.ts';
import { shared } from '../../ui/styles.ts';
import { TenantSection } from '../../ui/tenant-section.ts';
import '../../ui/row-button.ts';
import '../../ui/status-badge.ts';
import '../../ui/table.ts';
import type { Column } from '../../ui/table.ts';
import './detail.ts';
import { PIPELINES_STRINGS, type PipelinesStrings } from './strings.ts';
import { stateTone, type List, type Pipeline } from './types.ts';

export default class PipelinesSection extends TenantSection<PipelinesStrings> {
  static properties = { ...TenantSection.properties, pipelines: { state: true }, openId: { state: true }, busy: { state: true } };
  declare pipelines: Pipeline[] | null;
  declare openId: string | null;
  declare busy: boolean;
  protected strings = PIPELINES_STRINGS;

  constructor() {
    super();
    this.pipelines = null;
    this.openId = null;
    this.busy = false;
  }

  static styles = [shared, formStyles, css`
    form { max-width: 32rem; }
  `];

  protected contextChanged(context: SectionContext): void {
    this.pipelines = null;
    this.openId = null;
    void context.api.get<List<Pipeline>>('/api/v1/pipelines', { query: { limit: 500 } }).catch(() => null).then((listed) => { this.pipelines = listed?.items ?? []; });
  }

  /** Opens a pipeline (the detail moves focus to its heading once it is read). */
  private open(id: string): void {
    this.openId = id;
  }

  private async close(): Promise<void> {
    this.openId = null;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('#list-heading')?.focus();
  }

  private async create(event: Event): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const data = new FormData(form);
    this.busy = true;
    try {
      const created = await this.context!.api.post<Pipeline>('/api/v1/pipelines', { name: String(data.get('name')).trim(), description: String(data.get('description') ?? '').trim() });
      form.reset();
      this.pipelines = [created, ...(this.pipelines ?? [])];
      this.context!.announce(format(this.t.created, { name: created.name }));
      this.open(created.id);
    } catch { /* the client shows the API's message */ } finally {
      this.busy = false;
    }
  }

  private updated_(pipeline: Pipeline): void {
    this.pipelines = (this.pipelines ?? []).map((p) => (p.id === pipeline.id ? pipeline : p));
  }

  render() {
    const t = this.t;
    const columns: Column<Pipeline>[] = [
      { label: t.name, cell: (p) => html`<console-row-button variant="link" label=${format(t.openPipeline, { name: p.name })} @click=${() => this.open(p.id)}>${p.name}</console-row-button>` },
      { label: t.state, cell: (p) => html`<console-status tone=${stateTone(p.state)}>${t.states[p.state] ?? p.state}</console-status>` },
      { label: t.stepCount, cell: (p) => p.steps.length, numeric: true },
      { label: t.activeVersionColumn, cell: (p) => p.active_version ?? t.none, numeric: true },
      { label: t.latestVersion, cell: (p) => p.latest_version ?? t.none, numeric: true },
      { label: t.description, cell: (p) => p.description || t.none },
    ];
    return html`<section aria-labelledby="list-heading">
        <h2 id="list-heading" tabindex="-1">${t.pipelines}</h2>
        ${this.pipelines ? html`<console-table hide-caption .caption=${t.pipelines} .empty=${t.noPipelines} .columns=${columns} .rows=${this.pipelines}></console-table>`
          : html`<p aria-busy="true">${t.loading}</p>`}
      </section>
      ${this.openId && this.context ? html`<console-pipeline-detail .context=${this.context} .pipelineId=${this.openId} .t=${t}
        @updated=${(e: CustomEvent<Pipeline>) => this.updated_(e.detail)} @close=${() => this.close()}></console-pipeline-detail>` : nothing}
      <section aria-labelledby="new-heading">
        <h2 id="new-heading">${t.newPipeline}</h2>
        <form aria-labelledby="new-heading" @submit=${this.create}>
          <div class="field"><label for="new-name">${t.name}<span class="req" aria-hidden="true">*</span></label>
            <input id="new-name" name="name" required pattern="[A-Za-z0-9_]{1,63}" autocomplete="off" aria-describedby="new-name-hint">
            <p id="new-name-hint" class="hint">${t.nameHint}</p></div>
          <div class="field"><label for="new-description">${t.description}</label><input id="new-description" name="description" maxlength="2000" autocomplete="off"></div>
          <div class="actions"><button type="submit" class="primary" ?disabled=${this.busy}>${t.create}</button></div>
        </form>
      </section>`;
  }
}
