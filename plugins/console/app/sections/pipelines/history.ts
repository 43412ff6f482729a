// <console-pipeline-history>: a pipeline's versions (newest first, the
// active one marked) and its runs (sandbox and production, newest first),
// a run's step results opened from its row.
import { LitElement, css, html, nothing } from 'lit';
import { format, type Locale } from '../../i18n.ts';
import { shared } from '../../ui/styles.ts';
import '../../ui/row-button.ts';
import '../../ui/status-badge.ts';
import '../../ui/table.ts';
import type { Column } from '../../ui/table.ts';
import './run-steps.ts';
import type { PipelinesStrings } from './strings.ts';
import { runTone, type Pipeline, type Run, type Version } from './types.ts';

export class PipelineHistory extends LitElement {
  static properties = {
    pipeline: { attribute: false }, versions: { attribute: false }, runs: { attribute: false }, t: { attribute: false }, locale: {},
    openRun: { state: true },
  };
  declare pipeline: Pipeline;
  declare versions: Version[];
  declare runs: Run[];
  declare t: PipelinesStrings;
  declare locale: Locale;
  declare openRun: string | null;

  constructor() {
    super();
    this.versions = [];
    this.runs = [];
    this.openRun = null;
    this.locale = 'en';
  }

  static styles = [shared, css`
    h3 { font-size: 1.05rem; margin: 1.25rem 0 0.5rem; }
    .panel { border: 1px solid var(--border); border-radius: 8px; padding: 0 1rem 1rem; margin-top: 0.75rem; }
    .panel-head { display: flex; justify-content: space-between; align-items: baseline; gap: 1rem; flex-wrap: wrap; }
    h4 { font-size: 0.95rem; margin: 0.75rem 0 0.5rem; overflow-wrap: anywhere; }
  `];

  private when(value: string | null): string {
    if (!value) return this.t.none;
    return new Intl.DateTimeFormat(this.locale, { dateStyle: 'short', timeStyle: 'medium' }).format(new Date(value));
  }

  private async open(run: Run): Promise<void> {
    this.openRun = this.openRun === run.id ? null : run.id;
    if (!this.openRun) return;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('#run-heading')?.focus();
  }

  render() {
    const t = this.t;
    const versionColumns: Column<Version>[] = [
      { label: t.version, cell: (v) => v.version, numeric: true },
      { label: t.state, cell: (v) => (v.version === this.pipeline.active_version
        ? html`<console-status tone=${this.pipeline.state === 'active' ? 'ok' : 'warn'}>${this.pipeline.state === 'active' ? t.activeVersion : t.pausedVersion}</console-status>` : '') },
      { label: t.note, cell: (v) => v.note || t.none },
      { label: t.fingerprint, cell: (v) => v.fingerprint.slice(0, 12) },
      { label: t.createdBy, cell: (v) => v.created_by ?? t.none },
      { label: t.createdAt, cell: (v) => this.when(v.created_at) },
    ];
    const runColumns: Column<Run>[] = [
      { label: t.run, cell: (r) => html`<console-row-button variant="link" label=${format(t.openRun, { id: r.id })} @click=${() => this.open(r)}>${r.id.slice(0, 8)}</console-row-button>` },
      { label: t.kind, cell: (r) => t.kinds[r.kind] ?? r.kind },
      { label: t.trigger, cell: (r) => t.triggers[r.trigger] ?? r.trigger },
      { label: t.version, cell: (r) => r.version, numeric: true },
      { label: t.status, cell: (r) => html`<console-status tone=${runTone(r.status)}>${t.statuses[r.status] ?? r.status}</console-status>` },
      { label: t.started, cell: (r) => this.when(r.started_at) },
      { label: t.finished, cell: (r) => this.when(r.finished_at) },
    ];
    const run = this.runs.find((r) => r.id === this.openRun);
    return html`
      <h3 id="versions-heading">${t.versions}</h3>
      <console-table hide-caption .caption=${t.versions} .empty=${t.noVersions} .columns=${versionColumns} .rows=${this.versions}></console-table>
      <h3 id="runs-heading">${t.runs}</h3>
      <console-table hide-caption .caption=${t.runs} .empty=${t.noRuns} .columns=${runColumns} .rows=${this.runs}></console-table>
      ${run ? html`<div class="panel">
        <div class="panel-head">
          <h4 id="run-heading" tabindex="-1">${format(t.runOf, { kind: t.kinds[run.kind] ?? run.kind, id: run.id })}</h4>
          <button type="button" @click=${() => { this.openRun = null; }}>${t.close}</button>
        </div>
        <console-pipeline-run-steps .run=${run} .t=${t} .caption=${format(t.stepsOfRun, { id: run.id.slice(0, 8) })}></console-pipeline-run-steps>
      </div>` : nothing}`;
  }
}
if (!customElements.get('console-pipeline-history')) customElements.define('console-pipeline-history', PipelineHistory);
