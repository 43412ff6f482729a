// The two targets of a CONDITION must not run one after the other by
// accident: with steps [check → then yes / else no, yes, no], `yes` is
// followed by `no` in list order, so a true condition would run both. A
// definition where one explicit branch reaches the other branch's target
// through list order alone (no explicit `next` or `end` on the way) is
// refused, naming the steps and the fix. A branch left out (only then_step or
// only else_step given) continues in list order by design and is not checked.
import { successorOf } from './successors.ts';
import type { ConditionStep, Step } from './types.ts';

/** The step of the branch from `start` that runs on into `target` by list order, if any. */
function fallsInto(steps: readonly Step[], start: string, target: string): string | undefined {
  const byId = new Map(steps.map((step) => [step.id, step]));
  const seen = new Set<string>();
  let current = byId.get(start);
  // Only ACTION and WAIT steps are followed: a nested CONDITION has its own check.
  while (current && current.type !== 'CONDITION' && current.id !== target && !seen.has(current.id)) {
    seen.add(current.id);
    const successor = successorOf(steps, current);
    if (successor.kind === 'end' || successor.step_id === null) return undefined;
    if (successor.kind === 'list_order' && successor.step_id === target) return current.id;
    current = byId.get(successor.step_id);
  }
  return undefined;
}

export function branchFallThroughs(steps: readonly Step[]): string[] {
  const problems: string[] = [];
  for (const step of steps) {
    if (step.type !== 'CONDITION' || !step.then_step || !step.else_step || step.then_step === step.else_step) continue;
    for (const [branch, other] of [['then_step', 'else_step'], ['else_step', 'then_step']] as const) {
      const from = (step as ConditionStep)[branch]!;
      const into = (step as ConditionStep)[other]!;
      const last = fallsInto(steps, from, into);
      if (last === undefined) continue;
      problems.push(
        `step "${step.id}": the ${branch} branch ("${from}") runs on into the ${other} target "${into}" ` +
          `because "${last}" is followed by "${into}" in list order, so both branches would run; ` +
          `give step "${last}" an explicit "next" (the step after the branch) or "end": true (the workflow ends there)`,
      );
    }
  }
  return problems;
}
