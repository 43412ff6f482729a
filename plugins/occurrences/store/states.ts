// SQL of a tenant's states and transition graph; always in a tenant
// transaction. The default graph is seeded on the tenant's first use
// (ensureSeeded): inserts that race with another first use do nothing.
import type { TenantTransaction } from 'agent-platform/sdk';
import './tables.ts';

export interface StateValues {
  key: string;
  label: string;
  is_initial: boolean;
  is_final: boolean;
}

export const DEFAULT_STATES: StateValues[] = [
  { key: 'submitted', label: 'Submitted', is_initial: true, is_final: false },
  { key: 'triaged', label: 'Triaged', is_initial: false, is_final: false },
  { key: 'in_progress', label: 'In progress', is_initial: false, is_final: false },
  { key: 'resolved', label: 'Resolved', is_initial: false, is_final: true },
  { key: 'rejected', label: 'Rejected', is_initial: false, is_final: true },
  { key: 'duplicate', label: 'Duplicate', is_initial: false, is_final: true },
];

export const DEFAULT_TRANSITIONS: [string, string][] = [
  ['submitted', 'triaged'], ['submitted', 'rejected'], ['submitted', 'duplicate'],
  ['triaged', 'in_progress'], ['triaged', 'rejected'], ['triaged', 'duplicate'],
  ['in_progress', 'resolved'], ['in_progress', 'triaged'],
];

const STATE_COLUMNS = ['key', 'label', 'is_initial', 'is_final', 'position'] as const;

async function insertGraph(trx: TenantTransaction, tenantId: string, states: StateValues[], transitions: [string, string][]) {
  await trx.insertInto('occurrence_states').values(states.map((state, position) => ({ tenant_id: tenantId, ...state, position })))
    .onConflict((oc) => oc.doNothing()).execute();
  if (transitions.length) {
    await trx.insertInto('occurrence_transitions').values(transitions.map(([from, to]) => ({ tenant_id: tenantId, from_state: from, to_state: to })))
      .onConflict((oc) => oc.doNothing()).execute();
  }
}

export const statesStore = {
  async ensureSeeded(trx: TenantTransaction, tenantId: string): Promise<void> {
    if (await trx.selectFrom('occurrence_states').select('key').limit(1).executeTakeFirst()) return;
    await insertGraph(trx, tenantId, DEFAULT_STATES, DEFAULT_TRANSITIONS);
  },

  states: (trx: TenantTransaction) => trx.selectFrom('occurrence_states').select(STATE_COLUMNS).orderBy('position').orderBy('key').execute(),

  transitions: (trx: TenantTransaction) =>
    trx.selectFrom('occurrence_transitions').select(['from_state', 'to_state']).orderBy('from_state').orderBy('to_state').execute(),

  targetsFrom: async (trx: TenantTransaction, from: string) =>
    (await trx.selectFrom('occurrence_transitions').select('to_state').where('from_state', '=', from).orderBy('to_state').execute())
      .map((row) => row.to_state),

  finalKeys: async (trx: TenantTransaction) =>
    (await trx.selectFrom('occurrence_states').select('key').where('is_final', '=', true).execute()).map((row) => row.key),

  /** Replaces the whole graph (the caller validated it). */
  async replace(trx: TenantTransaction, tenantId: string, states: StateValues[], transitions: [string, string][]) {
    await trx.deleteFrom('occurrence_transitions').execute();
    await trx.deleteFrom('occurrence_states').execute();
    await insertGraph(trx, tenantId, states, transitions);
  },
};

export type StateRow = Awaited<ReturnType<typeof statesStore.states>>[number];
