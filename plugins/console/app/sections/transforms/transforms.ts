// The Transforms section (admins and pipeline editors): the tenant's SQL
// transforms (GET /api/v1/transforms), a new one or an opened one in the
// editor (editor.ts: the SQL editor, Review, Preview, save, delete), and an
// opened one's runs and artifacts (runs.ts) and schedule (schedule.ts), read
// from GET /api/v1/transforms/{id}/detail.
import { css, html, nothing } from 'lit';
import { format } from '../../i18n.ts';
import type { SectionContext } from '../contract.ts';
import { TenantSection } from '../../ui/tenant-section.ts';
import '../../ui/row-button.ts';
import '../../ui/status-badge.ts';
import '../../ui/table.ts';
import type { Column } from '../../ui/table.ts';
import './editor.ts';
import './runs.ts';
import { runGoing } from './runs.ts';
import './schedule.ts';
import { TRANSFORMS_STRINGS, type TransformsStrings } from './strings.ts';
import { transformsStyles } from './styles.ts';
import type { Detail, Transform } from './types.ts';

/** Reads of the detail while a run it started is queued or running (about a second apart). */
const RUN_WATCH_READS = 300;

export default class TransformsSection extends TenantSection<TransformsStrings> {
  static properties = { ...TenantSection.properties, transforms: { state: true }, opened: { state: true }, detail: { state: true }, loading: { state: true } };
  declare transforms: Transform[] | null;
  /** `new`, the id of the opened transform, or null. */
  declare opened: string | null;
  declare detail: Detail | null;
  declare loading: boolean;
  protected strings = TRANSFORMS_STRINGS;
  private watching: string | null = null;
  static styles = [...transformsStyles, css`.head { display: flex; flex-wrap: wrap; gap: 0.5rem; justify-content: space-between; align-items: baseline; }`];

  constructor() {
    super();
    this.transforms = null;
    this.opened = null;
    this.detail = null;
    this.loading = false;
  }

  protected contextChanged(): void {
    Object.assign(this, { opened: null, detail: null, transforms: null });
    void this.load();
  }

  private async load(announce = false): Promise<void> {
    const context = this.context as SectionContext;
    this.loading = true;
    const found = await context.api.get<{ items: Transform[] }>('/api/v1/transforms', { query: { limit: 500 } }).catch(() => null);
    this.transforms = found?.items ?? [];
    this.loading = false;
    if (announce) context.announce(this.t.refreshed);
  }

  private async readDetail(id: string): Promise<Detail | null> {
    const detail = await this.context!.api.get<Detail>(`/api/v1/transforms/${id}/detail`).catch(() => null);
    if (this.opened === id) this.detail = detail;
    return detail;
  }

  private async open(id: string | 'new'): Promise<void> {
    this.opened = id;
    this.detail = null;
    if (id !== 'new') await this.readDetail(id);
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('#editor-heading')?.focus();
  }

  /** Reads the detail again; with `watch` (a run id), until that run has ended, then says how it ended. */
  private async changed(watch?: string): Promise<void> {
    const id = this.opened;
    if (!id || id === 'new') return;
    let detail = await this.readDetail(id);
    if (!watch || this.watching === watch) return;
    this.watching = watch;
    for (let i = 0; i < RUN_WATCH_READS && this.opened === id; i++) {
      const run = detail?.last_runs.find((r) => r.id === watch);
      if (!run || !runGoing(run)) {
        if (run) this.context!.announce(format(this.t.runEnded, { id: run.id, status: this.t.runStatuses[run.status] ?? run.status }));
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
      detail = await this.readDetail(id);
    }
    this.watching = null;
    void this.load();
  }

  private renderList() {
    const t = this.t;
    const columns: Column<Transform>[] = [
      { label: t.name, cell: (x) => html`<console-row-button variant="link" label=${format(t.open, { name: x.name })} @click=${() => this.open(x.id)}>${x.name}</console-row-button>` },
      { label: t.output, cell: (x) => x.output_dataset },
      { label: t.inputs, cell: (x) => x.inputs.join(', ') || t.none },
      { label: t.materialization, cell: (x) => t.materializations[x.materialization] ?? x.materialization },
      { label: t.status, cell: (x) => html`<console-status tone=${x.status === 'active' ? 'ok' : 'neutral'}>${t.statuses[x.status] ?? x.status}</console-status>` },
    ];
    return html`<section aria-labelledby="list-heading">
      <div class="head"><h2 id="list-heading">${t.transforms}</h2>
        <div class="actions"><button type="button" ?disabled=${this.loading} @click=${() => this.load(true)}>${t.refresh}</button>
          <button type="button" class="primary" @click=${() => this.open('new')}>${t.newTransform}</button></div></div>
      <p class="muted">${t.intro}</p>
      ${this.transforms ? html`<console-table hide-caption .caption=${t.transforms} .empty=${t.noTransforms} .columns=${columns} .rows=${this.transforms}></console-table>` : nothing}
    </section>`;
  }

  private renderOpened() {
    const t = this.t;
    if (!this.opened) return nothing;
    const detail = this.opened === 'new' ? null : this.detail;
    if (this.opened !== 'new' && !detail) return nothing;
    return html`<div class="panel">
      <div class="panel-head"><h2 id="editor-heading" tabindex="-1">${detail ? format(t.editing, { name: detail.name }) : t.creating}</h2>
        <button type="button" @click=${() => { this.opened = null; this.detail = null; }}>${t.close}</button></div>
      <console-transform-editor .context=${this.context} .transform=${detail}
        @saved=${async (e: CustomEvent<{ id: string }>) => { await this.load(); if (this.opened === e.detail.id) await this.readDetail(e.detail.id); else await this.open(e.detail.id); }}
        @deleted=${() => { this.opened = null; this.detail = null; void this.load(); }}></console-transform-editor>
      ${detail ? html`<console-transform-runs .context=${this.context} .detail=${detail} @changed=${(e: CustomEvent<{ watch?: string }>) => this.changed(e.detail?.watch)}></console-transform-runs>
        <console-transform-schedule .context=${this.context} .detail=${detail} @changed=${() => this.changed()}></console-transform-schedule>` : nothing}
    </div>`;
  }

  render() {
    return html`${this.renderList()}${this.renderOpened()}`;
  }
}
