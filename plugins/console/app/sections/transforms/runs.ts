// <console-transform-runs>: a transform's last runs (status, rows, duration,
// error; from its detail) with Run now (POST /api/v1/transforms/{id}/materialize,
// wait false: queued, then read again until it has ended) and Cancel for a
// queued or running one (POST /api/v1/transform-runs/{id}/cancel), and its
// artifacts, each shown on demand (GET /api/v1/artifacts/{id}/content).
// Fires `changed` when the detail should be read again.
import { LitElement, html, nothing } from 'lit';
import { format } from '../../i18n.ts';
import type { SectionContext } from '../contract.ts';
import '../../ui/row-button.ts';
import '../../ui/status-badge.ts';
import '../../ui/table.ts';
import type { Column } from '../../ui/table.ts';
import type { Tone } from '../../ui/status-badge.ts';
import { TRANSFORMS_STRINGS, type TransformsStrings } from './strings.ts';
import { transformsStyles } from './styles.ts';
import type { Artifact, Detail, Run } from './types.ts';

const TONES: Record<string, Tone> = { succeeded: 'ok', failed: 'error', cancelled: 'neutral', queued: 'warn', running: 'warn' };
export const runGoing = (run: Run) => run.status === 'queued' || run.status === 'running';

export class TransformRuns extends LitElement {
  static properties = { context: { attribute: false }, detail: { attribute: false }, shown: { state: true }, busy: { state: true } };
  declare context: SectionContext | undefined;
  declare detail: Detail;
  declare shown: { artifact: Artifact; content: unknown } | null;
  declare busy: boolean;
  static styles = transformsStyles;

  constructor() {
    super();
    this.shown = null;
    this.busy = false;
  }

  private get t(): TransformsStrings { return TRANSFORMS_STRINGS[this.context?.locale ?? 'en']; }

  protected willUpdate(changed: Map<PropertyKey, unknown>): void {
    const before = changed.get('detail') as Detail | undefined;
    if (before && before.id !== this.detail.id) this.shown = null;
  }

  private when(value: string | null): string {
    if (!value) return this.t.none;
    return new Intl.DateTimeFormat(this.context?.locale, { dateStyle: 'short', timeStyle: 'medium' }).format(new Date(value));
  }

  private duration(ms: number | null): string {
    if (ms === null) return this.t.none;
    return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
  }

  private async runNow(): Promise<void> {
    this.busy = true;
    try {
      const run = await this.context!.api.post<Run>(`/api/v1/transforms/${this.detail.id}/materialize`, { wait: false });
      this.context!.announce(format(this.t.runQueued, { id: run.id }));
      this.dispatchEvent(new CustomEvent('changed', { detail: { watch: run.id } }));
    } catch { /* shown by the shell */ } finally {
      this.busy = false;
    }
  }

  private async cancel(run: Run): Promise<void> {
    try {
      await this.context!.api.post(`/api/v1/transform-runs/${run.id}/cancel`);
      this.dispatchEvent(new CustomEvent('changed', { detail: { watch: run.id } }));
    } catch { /* shown by the shell */ }
  }

  private async show(artifact: Artifact): Promise<void> {
    const found = await this.context!.api.get<{ content: unknown }>(`/api/v1/artifacts/${artifact.id}/content`).catch(() => null);
    if (!found) return;
    this.shown = { artifact, content: found.content };
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('#artifact-content')?.focus();
  }

  render() {
    const t = this.t;
    const runs: Column<Run>[] = [
      { label: t.run, cell: (r) => r.id, numeric: true },
      { label: t.trigger, cell: (r) => r.trigger },
      { label: t.status, cell: (r) => html`<console-status tone=${TONES[r.status] ?? 'neutral'}>${t.runStatuses[r.status] ?? r.status}</console-status>` },
      { label: t.rows, cell: (r) => r.rows ?? t.none, numeric: true },
      { label: t.duration, cell: (r) => this.duration(r.duration_ms), numeric: true },
      { label: t.started, cell: (r) => this.when(r.started_at ?? r.created_at) },
      { label: t.errorColumn, cell: (r) => (r.error ? `${r.error.code}: ${r.error.message}` : t.none) },
      { label: t.actions, cell: (r) => (runGoing(r) ? html`<console-row-button label=${format(t.cancelRun, { id: r.id })} @click=${() => this.cancel(r)}>${t.cancelLabel}</console-row-button>` : t.none) },
    ];
    const artifacts: Column<Artifact>[] = [
      { label: t.kind, cell: (a) => t.kinds[a.kind] ?? a.kind },
      { label: t.name, cell: (a) => a.name },
      { label: t.run, cell: (a) => a.run_id, numeric: true },
      { label: t.size, cell: (a) => `${a.size_bytes} B`, numeric: true },
      { label: t.show, cell: (a) => html`<console-row-button label=${format(t.showArtifact, { name: a.name, run: a.run_id })} @click=${() => this.show(a)}>${t.show}</console-row-button>` },
    ];
    const shown = this.shown;
    return html`<section aria-labelledby="runs-heading">
      <div class="panel-head"><h3 id="runs-heading">${t.runs}</h3>
        <button type="button" class="primary" ?disabled=${this.busy || this.detail.status === 'archived'} @click=${() => this.runNow()}>${t.runNow}</button></div>
      <console-table tabindex="0" role="region" aria-label=${t.runsTable} hide-caption .caption=${t.runs} .empty=${t.noRuns} .columns=${runs} .rows=${this.detail.last_runs}></console-table>
    </section>
    <section aria-labelledby="artifacts-heading">
      <h3 id="artifacts-heading">${t.artifacts}</h3>
      <console-table hide-caption .caption=${t.artifacts} .empty=${t.noArtifacts} .columns=${artifacts} .rows=${this.detail.artifacts}></console-table>
      ${shown ? html`<h3>${format(t.artifactOf, { name: shown.artifact.name, run: shown.artifact.run_id })}</h3>
        <pre id="artifact-content" tabindex="0" role="region" aria-label=${format(t.artifactOf, { name: shown.artifact.name, run: shown.artifact.run_id })}>${typeof shown.content === 'string' ? shown.content : JSON.stringify(shown.content, null, 2)}</pre>` : nothing}
    </section>`;
  }
}

if (!customElements.get('console-transform-runs')) customElements.define('console-transform-runs', TransformRuns);
