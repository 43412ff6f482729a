// <console-pipeline-run-steps>: the step results of one run (sandbox or
// production): each step's status, row count, output dataset, duration and
// error, then each step's sample rows as a table of its columns.
import { LitElement, css, html, nothing } from 'lit';
import { format } from '../../i18n.ts';
import { shared } from '../../ui/styles.ts';
import '../../ui/status-badge.ts';
import '../../ui/table.ts';
import type { Column } from '../../ui/table.ts';
import type { PipelinesStrings } from './strings.ts';
import { runTone, type Run, type StepResult } from './types.ts';

type Row = Record<string, unknown>;

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '∅';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

export class PipelineRunSteps extends LitElement {
  static properties = { run: { attribute: false }, t: { attribute: false }, caption: {} };
  declare run: Run;
  declare t: PipelinesStrings;
  /** The caption of the steps table. */
  declare caption: string;

  static styles = [shared, css`
    .samples { display: grid; gap: 0.75rem; margin-top: 0.75rem; }
    .error { color: var(--error); overflow-wrap: anywhere; }
  `];

  private samples(step: StepResult) {
    const rows = step.sample_rows ?? [];
    if (rows.length === 0) return nothing;
    const names = step.schema?.map((c) => c.name) ?? Object.keys(rows[0] ?? {});
    const columns: Column<Row>[] = names.map((name) => ({ label: name, cell: (row) => cellText(row[name]) }));
    return html`<console-table .caption=${format(this.t.sampleOf, { step: step.step_id, count: rows.length })} .columns=${columns} .rows=${rows} .empty=${this.t.none}></console-table>`;
  }

  render() {
    const t = this.t;
    const status = (s: string) => t.statuses[s] ?? s;
    const columns: Column<StepResult>[] = [
      { label: t.step, cell: (s) => s.step_id },
      { label: t.status, cell: (s) => html`<console-status tone=${runTone(s.status)}>${status(s.status)}</console-status>` },
      { label: t.rows, cell: (s) => s.rows ?? t.none, numeric: true },
      { label: t.outputDataset, cell: (s) => s.output_dataset ?? t.none },
      { label: t.duration, cell: (s) => (s.duration_ms === null ? t.none : format(t.milliseconds, { ms: s.duration_ms })), numeric: true },
      { label: t.error, cell: (s) => (s.error ? html`<span class="error">${s.error}</span>` : t.none) },
    ];
    return html`<p>${format(t.runSummary, { status: status(this.run.status), version: this.run.version, trigger: t.triggers[this.run.trigger] ?? this.run.trigger })}
        ${this.run.error ? html`<span class="error">${this.run.error}</span>` : nothing}</p>
      <console-table .caption=${this.caption} .columns=${columns} .rows=${this.run.steps} .empty=${t.none}></console-table>
      <div class="samples">${this.run.steps.map((step) => this.samples(step))}</div>`;
  }
}
if (!customElements.get('console-pipeline-run-steps')) customElements.define('console-pipeline-run-steps', PipelineRunSteps);
