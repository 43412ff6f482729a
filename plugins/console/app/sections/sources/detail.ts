// <console-sources-detail>: one source: its pattern, state and configuration
// (credential fields only as set or not set), then discovery, streams, runs
// with Sync now, and the schedule. It holds the source's streams (GET
// /api/v1/sources/{id}/streams) for its parts: the discovery and the stream
// editor change them (`streams-changed`), Sync now reads them and, when none
// is enabled, asks the discovery to offer streams (`offer-streams`).
import { LitElement, html } from 'lit';
import { format } from '../../i18n.ts';
import type { SectionContext } from '../contract.ts';
import './credentials.ts';
import './discover.ts';
import './runs.ts';
import './schedule.ts';
import './streams.ts';
import { sourcesStyles } from './styles.ts';
import { SOURCES_STRINGS } from './strings.ts';
import { statusLabel, type Source, type Stream } from './types.ts';

export class SourcesDetail extends LitElement {
  static properties = { context: { attribute: false }, source: { attribute: false }, streams: { state: true }, offer: { state: true } };
  declare context: SectionContext;
  declare source: Source;
  declare streams: Stream[];
  declare offer: boolean;
  static styles = sourcesStyles;

  constructor() {
    super();
    this.streams = [];
    this.offer = false;
  }

  private get t() { return SOURCES_STRINGS[this.context.locale]; }

  protected willUpdate(changed: Map<PropertyKey, unknown>): void {
    const before = changed.get('source') as Source | undefined;
    if (changed.has('source') && (!before || before.id !== this.source.id)) {
      this.streams = [];
      this.offer = false;
      void this.loadStreams(this.source.id);
    }
  }

  private async loadStreams(sourceId: string): Promise<void> {
    const listed = await this.context.api.get<{ items: Stream[] }>(`/api/v1/sources/${sourceId}/streams`).catch(() => null);
    if (sourceId === this.source.id && listed) this.streams = listed.items;
  }

  private streamsChanged(event: CustomEvent<{ streams: Stream[] }>): void {
    this.streams = event.detail.streams;
    if (this.streams.some((s) => s.enabled)) this.offer = false;
  }

  private async offerStreams(): Promise<void> {
    if (this.offer) this.context.announce(this.t.noEnabledStreams);
    this.offer = true;
    await this.updateComplete;
    this.renderRoot.querySelector('console-sources-discover')?.scrollIntoView({ block: 'nearest' });
  }

  render() {
    const t = this.t;
    const source = this.source;
    const config = Object.entries(source.source_config);
    return html`<article aria-labelledby="source-heading">
      <h2 id="source-heading">${source.name}</h2>
      <dl>
        <dt>${t.pattern}</dt><dd>${source.pattern_id}</dd>
        <dt>${t.state}</dt><dd>${statusLabel(t, source.state)}</dd>
      </dl>
      <section class="panel" aria-labelledby="configuration-heading">
        <h3 id="configuration-heading">${t.configuration}</h3>
        ${config.length ? html`<dl>${config.map(([key, value]) => html`<dt>${key}</dt><dd>${typeof value === 'string' ? value : JSON.stringify(value)}</dd>`)}</dl>`
          : html`<p class="muted">${t.noConfiguration}</p>`}
      </section>
      <console-sources-credentials .context=${this.context} .source=${source}></console-sources-credentials>
      <console-sources-runs .context=${this.context} .source=${source} .streams=${this.streams}
        @offer-streams=${() => void this.offerStreams()}></console-sources-runs>
      <console-sources-discover .context=${this.context} .source=${source} .streams=${this.streams} ?offer=${this.offer}
        @streams-changed=${(e: CustomEvent<{ streams: Stream[] }>) => this.streamsChanged(e)}></console-sources-discover>
      <console-sources-streams .context=${this.context} .source=${source} .streams=${this.streams}
        @streams-changed=${(e: CustomEvent<{ streams: Stream[] }>) => this.streamsChanged(e)}></console-sources-streams>
      <console-sources-schedule .context=${this.context} .source=${source}></console-sources-schedule>
      <div class="actions"><button type="button" @click=${() => this.dispatchEvent(new CustomEvent('source-closed', { bubbles: true, composed: true }))}>${format(t.close, { name: source.name })}</button></div>
    </article>`;
  }
}
if (!customElements.get('console-sources-detail')) customElements.define('console-sources-detail', SourcesDetail);
