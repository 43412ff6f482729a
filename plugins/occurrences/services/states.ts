// States and transitions: the tenant's
// graph (seeded on first use with submitted → triaged → in_progress →
// resolved, plus the final rejected and duplicate), replaced whole by a
// staff admin; and transitions of one occurrence, which lock its row (SELECT
// ... FOR UPDATE), check expected_state and the graph, record history and
// apply the send_on_enter templates of the new state, all in one transaction.
import type { CoreServices, TenantTransaction } from 'agent-platform/sdk';
import { occurrenceErrors } from '../errors.ts';
import { OCCURRENCE_STATE_CHANGED } from '../event-types.ts';
import { occurrencesStore } from '../store/occurrences.ts';
import { statesStore, type StateValues } from '../store/states.ts';
import type { Messaging } from './messaging.ts';
import { staffOccurrence } from './views.ts';

/** The state that needs `duplicate_of` (the occurrence it duplicates). */
export const DUPLICATE_STATE = 'duplicate';

export interface GraphInput {
  states: StateValues[];
  transitions: { from_state: string; to_state: string }[];
}

export interface TransitionInput {
  to_state: string;
  comment?: string;
  expected_state?: string;
  duplicate_of?: number;
}

function graphProblems(graph: GraphInput, inUse: string[]): string[] {
  const problems: string[] = [];
  const keys = new Set<string>();
  for (const state of graph.states) {
    if (keys.has(state.key)) problems.push(`state ${state.key} appears twice`);
    if (state.is_initial && state.is_final) problems.push(`state ${state.key} cannot be both initial and final`);
    keys.add(state.key);
  }
  const initial = graph.states.filter((state) => state.is_initial);
  if (initial.length !== 1) problems.push(`exactly one state must be initial (${initial.length} are)`);
  if (!graph.states.some((state) => state.is_final)) problems.push('at least one state must be final');
  const seen = new Set<string>();
  for (const { from_state: from, to_state: to } of graph.transitions) {
    if (!keys.has(from)) problems.push(`transition ${from} → ${to}: no state ${from}`);
    if (!keys.has(to)) problems.push(`transition ${from} → ${to}: no state ${to}`);
    if (from === to) problems.push(`transition ${from} → ${to}: a state cannot move to itself`);
    if (seen.has(`${from}>${to}`)) problems.push(`transition ${from} → ${to} appears twice`);
    seen.add(`${from}>${to}`);
  }
  for (const key of inUse) if (!keys.has(key)) problems.push(`state ${key} holds occurrences: it cannot be removed`);
  return problems;
}

export function createStatesService(core: CoreServices, messaging: Messaging) {
  async function graph(trx: TenantTransaction, tenantId: string) {
    await statesStore.ensureSeeded(trx, tenantId);
    const [states, transitions] = await Promise.all([statesStore.states(trx), statesStore.transitions(trx)]);
    return { states, transitions };
  }

  return {
    graph: (tenantId: string) => core.withTenant(tenantId, (trx) => graph(trx, tenantId)),

    replace: (tenantId: string, input: GraphInput) => core.withTenant(tenantId, async (trx) => {
      const problems = graphProblems(input, await occurrencesStore.statesInUse(trx));
      if (problems.length) throw occurrenceErrors.graphInvalid(problems);
      await statesStore.replace(trx, tenantId, input.states, input.transitions.map((t) => [t.from_state, t.to_state]));
      return graph(trx, tenantId);
    }),

    allowed: (tenantId: string, occurrenceId: number) => core.withTenant(tenantId, async (trx) => {
      const { states } = await graph(trx, tenantId);
      const row = await occurrencesStore.find(trx, occurrenceId);
      if (!row) throw occurrenceErrors.occurrenceNotFound();
      const targets = await statesStore.targetsFrom(trx, row.state);
      return {
        occurrence_id: row.id,
        current_state: row.state,
        allowed_transitions: states.filter((state) => targets.includes(state.key)).map((state) => ({
          to_state: state.key, label: state.label, is_final: state.is_final, requires: state.key === DUPLICATE_STATE ? ['duplicate_of'] : [],
        })),
      };
    }),

    transition: (tenantId: string, occurrenceId: number, input: TransitionInput, actor: string | null) => core.withTenant(tenantId, async (trx) => {
      await statesStore.ensureSeeded(trx, tenantId);
      const row = await occurrencesStore.lock(trx, occurrenceId);
      if (!row) throw occurrenceErrors.occurrenceNotFound();
      if (input.expected_state !== undefined && input.expected_state !== row.state) throw occurrenceErrors.staleState(input.expected_state, row.state);
      const allowed = await statesStore.targetsFrom(trx, row.state);
      if (!allowed.includes(input.to_state)) throw occurrenceErrors.transitionNotAllowed(row.state, input.to_state, allowed);
      let duplicateOf: number | null = null;
      if (input.to_state === DUPLICATE_STATE) {
        if (input.duplicate_of === undefined) throw occurrenceErrors.validationFailed([{ field: 'duplicate_of', message: 'is required to mark a duplicate' }]);
        if (input.duplicate_of === row.id) throw occurrenceErrors.validationFailed([{ field: 'duplicate_of', message: 'an occurrence cannot duplicate itself' }]);
        if (!(await occurrencesStore.find(trx, input.duplicate_of))) throw occurrenceErrors.validationFailed([{ field: 'duplicate_of', message: 'no such occurrence' }]);
        duplicateOf = input.duplicate_of;
      } else if (input.duplicate_of !== undefined) {
        throw occurrenceErrors.validationFailed([{ field: 'duplicate_of', message: `only for the ${DUPLICATE_STATE} state` }]);
      }
      const now = core.clock.now();
      const updated = await occurrencesStore.setState(trx, row.id, input.to_state, duplicateOf, now);
      await occurrencesStore.addHistory(trx, tenantId, {
        occurrence_id: row.id, from_state: row.state, to_state: input.to_state, comment: input.comment ?? '', actor, created_at: now,
      });
      await core.events.emit(trx, tenantId, {
        type: OCCURRENCE_STATE_CHANGED, source: `/occurrences/${row.id}`,
        data: { occurrence_id: row.id, reference: row.reference, from_state: row.state, to_state: input.to_state, duplicate_of: duplicateOf, actor },
      });
      const messagesSent = await messaging.onEnter(trx, tenantId, updated);
      return { ...staffOccurrence(updated), messages_sent: messagesSent };
    }),
  };
}

export type StatesService = ReturnType<typeof createStatesService>;
