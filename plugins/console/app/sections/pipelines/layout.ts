// The drawing of a pipeline's DAG, computed without a library: the edges
// (B reads A when B's inputs name A's id or A's output dataset), each step's
// layer (the longest path from a root; an edge that closes a cycle is left
// out of the layering and drawn going back up), and node positions, layers
// top to bottom, steps in declaration order within a layer.
import type { AvailableTransform, Step } from './types.ts';

export interface Edge { from: string; to: string; /** Closes a cycle (drawn back up). */ back: boolean }
export interface PlacedNode { id: string; layer: number; x: number; y: number }
export interface Layout { nodes: PlacedNode[]; edges: Edge[]; width: number; height: number }

export const NODE = { width: 168, height: 52, gapX: 36, gapY: 64, margin: 16 };

/** Whether `input` names the output dataset of `step` (an inline step writes derived.<tenant>.<output>). */
function writes(step: Step, input: string, transforms: Map<string, AvailableTransform>): boolean {
  if (step.sql && step.output) {
    const parts = input.split('.');
    return parts.length === 3 && parts[0] === 'derived' && parts[2] === step.output;
  }
  const transform = transforms.get(step.transform_id ?? '') ?? transforms.get(step.transform_name ?? '');
  return !!transform && transform.output_dataset === input;
}

/** The edges of the steps, in declaration order of the reading step; `transforms` by id and by name. */
export function edgesOf(steps: Step[], transforms: Map<string, AvailableTransform> = new Map()): Omit<Edge, 'back'>[] {
  const ids = new Set(steps.map((s) => s.id));
  const edges: Omit<Edge, 'back'>[] = [];
  for (const step of steps) {
    const from = new Set<string>();
    for (const input of step.inputs ?? []) {
      if (!input.includes('.')) {
        if (ids.has(input)) from.add(input);
        continue;
      }
      const producer = steps.find((other) => writes(other, input, transforms));
      if (producer) from.add(producer.id);
    }
    for (const id of from) edges.push({ from: id, to: step.id });
  }
  return edges;
}

/** Edges that close a cycle: those a depth-first walk in declaration order finds going back to a step still on its path. */
function backEdges(ids: string[], edges: Omit<Edge, 'back'>[]): Set<Omit<Edge, 'back'>> {
  const out = new Map(ids.map((id) => [id, edges.filter((e) => e.from === id)]));
  const state = new Map<string, 'open' | 'done'>();
  const back = new Set<Omit<Edge, 'back'>>();
  const visit = (id: string) => {
    state.set(id, 'open');
    for (const edge of out.get(id) ?? []) {
      const seen = state.get(edge.to);
      if (seen === 'open') back.add(edge);
      else if (!seen) visit(edge.to);
    }
    state.set(id, 'done');
  };
  for (const id of ids) if (!state.has(id)) visit(id);
  return back;
}

export function layoutOf(steps: Step[], transforms: Map<string, AvailableTransform> = new Map()): Layout {
  const ids = [...new Set(steps.map((s) => s.id))];
  const plain = edgesOf(steps, transforms);
  const back = backEdges(ids, plain);
  const edges: Edge[] = plain.map((e) => ({ ...e, back: back.has(e) }));
  const forward = edges.filter((e) => !e.back);
  // Longest path from the roots over the forward edges (acyclic): relax until nothing changes.
  const layer = new Map(ids.map((id) => [id, 0]));
  for (let changed = true, rounds = 0; changed && rounds <= ids.length; rounds++) {
    changed = false;
    for (const e of forward) {
      const next = layer.get(e.from)! + 1;
      if (next > layer.get(e.to)!) { layer.set(e.to, next); changed = true; }
    }
  }
  const rows = new Map<number, string[]>();
  for (const id of ids) rows.set(layer.get(id)!, [...(rows.get(layer.get(id)!) ?? []), id]);
  const widest = Math.max(1, ...[...rows.values()].map((row) => row.length));
  const layers = Math.max(1, rows.size === 0 ? 1 : Math.max(...rows.keys()) + 1);
  const width = NODE.margin * 2 + widest * NODE.width + (widest - 1) * NODE.gapX;
  const nodes: PlacedNode[] = [];
  for (const [at, row] of rows) {
    // Each layer is centred across the widest one.
    const rowWidth = row.length * NODE.width + (row.length - 1) * NODE.gapX;
    const left = (width - rowWidth) / 2;
    row.forEach((id, index) => nodes.push({ id, layer: at, x: left + index * (NODE.width + NODE.gapX), y: NODE.margin + at * (NODE.height + NODE.gapY) }));
  }
  const height = NODE.margin * 2 + layers * NODE.height + (layers - 1) * NODE.gapY;
  return { nodes: ids.map((id) => nodes.find((n) => n.id === id)!), edges, width, height };
}
