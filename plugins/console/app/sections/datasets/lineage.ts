// <console-dataset-lineage>: who writes a dataset and how it links to others
// (GET /api/v1/datasets/{id}/lineage): its writers (source streams,
// transforms, pipelines) with their last write, the datasets it reads from
// (upstream) and those that read it (downstream), each a link that opens it.
import { LitElement, css, html } from 'lit';
import { format } from '../../i18n.ts';
import type { SectionContext } from '../contract.ts';
import { shared } from '../../ui/styles.ts';
import { DATASETS_STRINGS } from './strings.ts';
import { datasetPath, openDatasetEvent, when, writerLabel, type Lineage, type LinkedDataset } from './types.ts';

export class DatasetLineage extends LitElement {
  static properties = { context: { attribute: false }, datasetId: { attribute: false }, lineage: { state: true } };
  declare context: SectionContext | undefined;
  declare datasetId: string;
  declare lineage: Lineage | null;
  private loadedKey = '';
  static styles = [shared, css`
    .cards { grid-template-columns: repeat(auto-fit, minmax(15rem, 1fr)); }
    ul { margin: 0.5rem 0 0; padding-left: 1.1rem; display: grid; gap: 0.4rem; }
    a { color: var(--accent); font-family: ui-monospace, SFMono-Regular, Menlo, monospace; word-break: break-all; }
    .small { font-size: 0.875rem; }
  `];

  constructor() {
    super();
    this.datasetId = '';
    this.lineage = null;
  }

  private get t() { return DATASETS_STRINGS[this.context?.locale ?? 'en']; }

  protected willUpdate(): void {
    const key = `${this.context?.tenant}|${this.datasetId}`;
    if (!this.context || !this.datasetId || key === this.loadedKey) return;
    this.loadedKey = key;
    this.lineage = null;
    void this.context.api.get<Lineage>(`/api/v1/datasets/${encodeURIComponent(this.datasetId)}/lineage`)
      .then((lineage) => { if (key === this.loadedKey) this.lineage = lineage; }, () => { if (key === this.loadedKey) this.lineage = { writers: [], upstream: [], downstream: [] }; });
  }

  private open(event: MouseEvent, datasetId: string): void {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    this.dispatchEvent(openDatasetEvent(datasetId));
  }

  private linked(items: LinkedDataset[], none: string) {
    const t = this.t;
    if (!items.length) return html`<p class="muted">${none}</p>`;
    return html`<ul>${items.map((d) => html`<li>
      ${d.exists ? html`<a href=${datasetPath(d.dataset_id)} @click=${(e: MouseEvent) => this.open(e, d.dataset_id)}>${d.dataset_id}</a>` : html`<span>${d.dataset_id}</span> <span class="muted">${t.gone}</span>`}
      ${d.producer ? html`<div class="small muted">${format(t.via, { writer: writerLabel(t, d.producer) })}</div>` : ''}
    </li>`)}</ul>`;
  }

  render() {
    const t = this.t;
    const lineage = this.lineage;
    if (!lineage) return html`<p aria-busy="true">${t.loading}</p>`;
    const locale = this.context?.locale ?? 'en';
    return html`<p class="muted">${t.lineageIntro}</p>
      <div class="cards">
        <div class="card"><h3>${t.writers}</h3><ul>${lineage.writers.map((w) => html`<li>${writerLabel(t, w)}
          <div class="small muted">${w.last_written_at ? format(t.lastWritten, { when: when(locale, w.last_written_at) }) : t.neverWritten}</div></li>`)}</ul></div>
        <div class="card"><h3>${t.upstream}</h3>${this.linked(lineage.upstream, t.noUpstream)}</div>
        <div class="card"><h3>${t.downstream}</h3>${this.linked(lineage.downstream, t.noDownstream)}</div>
      </div>`;
  }
}

if (!customElements.get('console-dataset-lineage')) customElements.define('console-dataset-lineage', DatasetLineage);
