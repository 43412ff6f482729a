// Where a step goes next, shared by the interpreter and by validation: an
// explicit `next`, an explicit end (`end: true`), or the following step in
// list order (the end of the workflow after the last step).
import type { Step } from './types.ts';

export type Successor =
  | { kind: 'next'; step_id: string }
  | { kind: 'end' }
  /** No `next` or `end`: the step after it in the list (`step_id` null after the last step). */
  | { kind: 'list_order'; step_id: string | null };

/** The successor of an ACTION or WAIT step (a CONDITION's are its branches). */
export function successorOf(steps: readonly Step[], step: Step): Successor {
  if (step.type !== 'CONDITION') {
    if (step.end === true) return { kind: 'end' };
    if (step.next) return { kind: 'next', step_id: step.next };
  }
  const index = steps.indexOf(step);
  return { kind: 'list_order', step_id: steps[index + 1]?.id ?? null };
}

export function successorId(steps: readonly Step[], step: Step): string | null {
  const successor = successorOf(steps, step);
  return successor.kind === 'end' ? null : successor.step_id;
}
