// The pure part of DAG validation: edges from inputs, duplicate ids and
// outputs, unknown step references, cycles named by their steps (strongly
// connected components) and a topological order. No I/O: the service checks
// datasets and transforms around it.
import type { DagError } from '../api.ts';

export interface GraphStep {
  id: string;
  /** Output dataset id; null when it could not be resolved. */
  output: string | null;
  inputs: string[];
}

export interface GraphAnalysis {
  errors: DagError[];
  order: string[];
  /** Per step, the steps it reads from. */
  dependsOn: Map<string, string[]>;
  /** Inputs that are datasets outside the pipeline (the lake checks them), with the steps reading them. */
  external: Map<string, string[]>;
}

/** A step reference has no dot; a dataset id is `<namespace>.<layer>.<table>`. */
export const isDatasetRef = (input: string) => input.includes('.');

export function analyzeGraph(steps: GraphStep[]): GraphAnalysis {
  const errors: DagError[] = [];
  const ids = new Set<string>();
  for (const step of steps) {
    if (ids.has(step.id)) errors.push({ code: 'DUPLICATE_STEP', message: `two steps have the id ${step.id}`, steps: [step.id] });
    ids.add(step.id);
  }
  const producers = new Map<string, string[]>();
  for (const step of steps) {
    if (step.output) producers.set(step.output, [...(producers.get(step.output) ?? []), step.id]);
  }
  for (const [output, writers] of producers) {
    if (writers.length > 1) errors.push({ code: 'DUPLICATE_OUTPUT', message: `steps ${writers.join(', ')} all write ${output}`, steps: writers });
  }
  const dependsOn = new Map<string, string[]>();
  const external = new Map<string, string[]>();
  for (const step of steps) {
    const deps: string[] = [];
    for (const input of step.inputs) {
      if (isDatasetRef(input)) {
        const producer = producers.get(input)?.[0];
        if (producer !== undefined) deps.push(producer);
        else external.set(input, [...(external.get(input) ?? []), step.id]);
      } else if (ids.has(input)) {
        deps.push(input);
      } else {
        errors.push({ code: 'MISSING_INPUT', message: `step ${step.id} reads ${input}, which is no step of the pipeline nor a dataset id`, steps: [step.id] });
      }
    }
    dependsOn.set(step.id, [...new Set(deps)]);
  }
  for (const cycle of cyclesOf(steps.map((s) => s.id), dependsOn)) {
    errors.push({ code: 'DAG_CYCLE', message: `steps ${cycle.join(' -> ')} form a cycle`, steps: cycle });
  }
  return { errors, order: topologicalOrder(steps.map((s) => s.id), dependsOn), dependsOn, external };
}

/** Kahn's algorithm, taking ready steps in declaration order; steps in or after a cycle never become ready. */
export function topologicalOrder(ids: string[], dependsOn: Map<string, string[]>): string[] {
  const unique = [...new Set(ids)];
  const done = new Set<string>();
  const order: string[] = [];
  let progressed = true;
  while (progressed) {
    progressed = false;
    for (const id of unique) {
      if (done.has(id)) continue;
      if ((dependsOn.get(id) ?? []).every((dep) => done.has(dep))) {
        done.add(id);
        order.push(id);
        progressed = true;
      }
    }
  }
  return order;
}

/** Tarjan's strongly connected components: each of more than one step, or a step reading itself, is a cycle. */
function cyclesOf(ids: string[], dependsOn: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let counter = 0;
  const visit = (id: string) => {
    index.set(id, counter);
    low.set(id, counter);
    counter += 1;
    stack.push(id);
    onStack.add(id);
    for (const dep of dependsOn.get(id) ?? []) {
      if (!index.has(dep)) {
        visit(dep);
        low.set(id, Math.min(low.get(id)!, low.get(dep)!));
      } else if (onStack.has(dep)) {
        low.set(id, Math.min(low.get(id)!, index.get(dep)!));
      }
    }
    if (low.get(id) === index.get(id)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== id);
      if (component.length > 1 || (dependsOn.get(id) ?? []).includes(id)) {
        cycles.push(ids.filter((candidate) => component.includes(candidate)));
      }
    }
  };
  for (const id of new Set(ids)) if (!index.has(id)) visit(id);
  return cycles;
}
