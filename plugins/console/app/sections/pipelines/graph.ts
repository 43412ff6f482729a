// <console-pipeline-graph>: a pipeline's DAG drawn as SVG (steps as boxes in
// layers from layout.ts, edges as arrows) with its text alternative beside
// it: the list of steps and the list of edges. Steps and edges of a cycle
// found by validation are drawn red and dashed, and named so in both lists.
import { LitElement, css, html, nothing, svg } from 'lit';
import { format } from '../../i18n.ts';
import { shared } from '../../ui/styles.ts';
import { NODE, layoutOf, type Edge, type PlacedNode } from './layout.ts';
import type { PipelinesStrings } from './strings.ts';
import type { AvailableTransform, Step } from './types.ts';

const LABEL_CHARS = 20;
/** Room on the right for the edges that go back up. */
const BACK_ROOM = 48;
const clip = (text: string) => (text.length > LABEL_CHARS ? `${text.slice(0, LABEL_CHARS - 1)}…` : text);

export class PipelineGraph extends LitElement {
  static properties = { steps: { attribute: false }, transforms: { attribute: false }, cycles: { attribute: false }, t: { attribute: false }, name: {} };
  declare steps: Step[];
  declare transforms: Map<string, AvailableTransform>;
  /** The steps of each cycle validation found. */
  declare cycles: string[][];
  declare t: PipelinesStrings;
  declare name: string;

  constructor() {
    super();
    this.steps = [];
    this.transforms = new Map();
    this.cycles = [];
    this.name = '';
  }

  static styles = [shared, css`
    .wrap { display: grid; gap: 0.75rem; }
    .canvas { overflow: auto; border: 1px solid var(--border); border-radius: 8px; background: var(--bg); max-height: 32rem; }
    svg { display: block; }
    rect.node { fill: var(--surface); stroke: var(--accent); stroke-width: 1.5; }
    rect.node.cycle { stroke: var(--error); stroke-width: 2.5; stroke-dasharray: 6 3; fill: var(--error-bg); }
    text { font: 600 13px system-ui, sans-serif; fill: var(--fg); }
    text.sub { font-weight: 400; font-size: 11px; fill: var(--muted); }
    text.sub.cycle { fill: var(--error); font-weight: 600; }
    path.edge { fill: none; stroke: var(--muted); stroke-width: 1.5; }
    polygon.head { fill: var(--muted); }
    path.edge.cycle { stroke: var(--error); stroke-width: 2.5; stroke-dasharray: 6 3; }
    polygon.head.cycle { fill: var(--error); }
    h4 { margin: 0.5rem 0 0.25rem; font-size: 0.95rem; }
    ul { margin: 0; padding-left: 1.25rem; }
    li { margin: 0.15rem 0; overflow-wrap: anywhere; }
    .mark { color: var(--error); font-weight: 600; }
    code { font-family: ui-monospace, monospace; font-size: 0.9em; }
  `];

  private inCycle(id: string): boolean { return this.cycles.some((cycle) => cycle.includes(id)); }
  private edgeInCycle(edge: Edge): boolean { return this.cycles.some((cycle) => cycle.includes(edge.from) && cycle.includes(edge.to)); }

  private drawEdge(edge: Edge, at: Map<string, PlacedNode>) {
    const from = at.get(edge.from)!;
    const to = at.get(edge.to)!;
    const cls = this.edgeInCycle(edge) ? 'cycle' : '';
    if (edge.back) {
      // From the right side of the reader back up to the right side of the step it reads from.
      const x1 = from.x + NODE.width, y1 = from.y + NODE.height / 2, x2 = to.x + NODE.width, y2 = to.y + NODE.height / 2;
      const bend = Math.max(x1, x2) + BACK_ROOM - 8;
      return svg`<path class="edge ${cls}" d="M ${x1} ${y1} C ${bend} ${y1}, ${bend} ${y2}, ${x2 + 9} ${y2}"></path>
        <polygon class="head ${cls}" points="${x2 + 10},${y2 - 5} ${x2 + 10},${y2 + 5} ${x2},${y2}"></polygon>`;
    }
    const x1 = from.x + NODE.width / 2, y1 = from.y + NODE.height, x2 = to.x + NODE.width / 2, y2 = to.y;
    const pull = NODE.gapY / 2;
    return svg`<path class="edge ${cls}" d="M ${x1} ${y1} C ${x1} ${y1 + pull}, ${x2} ${y2 - pull}, ${x2} ${y2 - 9}"></path>
      <polygon class="head ${cls}" points="${x2 - 5},${y2 - 10} ${x2 + 5},${y2 - 10} ${x2},${y2}"></polygon>`;
  }

  private drawNode(node: PlacedNode, step: Step | undefined) {
    const cycle = this.inCycle(node.id);
    const sub = cycle ? this.t.cycleMark : (step?.output ?? step?.transform_name ?? (step?.transform_id ? this.t.transformStep : ''));
    return svg`<g class="step" data-step=${node.id}>
      <title>${node.id}</title>
      <rect class="node ${cycle ? 'cycle' : ''}" x=${node.x} y=${node.y} width=${NODE.width} height=${NODE.height} rx="8"></rect>
      <text x=${node.x + 12} y=${node.y + 21}>${clip(node.id)}</text>
      <text class="sub ${cycle ? 'cycle' : ''}" x=${node.x + 12} y=${node.y + 39}>${clip(sub)}</text>
    </g>`;
  }

  private source(step: Step): string {
    if (step.sql) return format(this.t.writesTable, { output: step.output ?? '' });
    return format(this.t.usesTransform, { transform: step.transform_name ?? step.transform_id ?? '' });
  }

  render() {
    const t = this.t;
    if (this.steps.length === 0) return html`<p class="muted">${t.noSteps}</p>`;
    const layout = layoutOf(this.steps, this.transforms);
    const at = new Map(layout.nodes.map((n) => [n.id, n]));
    const width = layout.width + (layout.edges.some((e) => e.back) ? BACK_ROOM : 0);
    const byId = new Map(this.steps.map((s) => [s.id, s]));
    const summary = format(t.graphAlt, { name: this.name, steps: layout.nodes.length, edges: layout.edges.length });
    return html`<div class="wrap">
      <div class="canvas" tabindex="0" role="region" aria-label=${format(t.graphOf, { name: this.name })}>
        <svg role="img" aria-label=${summary} width=${width} height=${layout.height} viewBox="0 0 ${width} ${layout.height}">
          ${layout.edges.map((edge) => this.drawEdge(edge, at))}
          ${layout.nodes.map((node) => this.drawNode(node, byId.get(node.id)))}
        </svg>
      </div>
      <div>
        <h4 id="steps-heading">${t.stepsList}</h4>
        <ul aria-labelledby="steps-heading">${layout.nodes.map((node) => {
          const step = byId.get(node.id)!;
          const reads = (step.inputs ?? []).filter((input) => input.includes('.'));
          return html`<li><code>${node.id}</code>${step.name ? ` (${step.name})` : ''}: ${format(t.layerOf, { layer: node.layer + 1 })}; ${this.source(step)}${reads.length ? html`; ${format(t.readsDatasets, { datasets: reads.join(', ') })}` : nothing}${this.inCycle(node.id) ? html` <span class="mark">${t.inCycle}</span>` : nothing}</li>`;
        })}</ul>
        <h4 id="edges-heading">${t.edgesList}</h4>
        ${layout.edges.length === 0 ? html`<p class="muted">${t.noEdges}</p>` : html`<ul aria-labelledby="edges-heading">${layout.edges.map((edge) => html`<li>${format(t.edgeText, { from: edge.from, to: edge.to })}${this.edgeInCycle(edge) ? html` <span class="mark">${t.inCycle}</span>` : nothing}</li>`)}</ul>`}
      </div>
    </div>`;
  }
}
if (!customElements.get('console-pipeline-graph')) customElements.define('console-pipeline-graph', PipelineGraph);
