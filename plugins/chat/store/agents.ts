// kysely queries for agent definitions and clients' default agents.
import { sql } from 'kysely';
import type { TenantTransaction } from 'agent-platform/sdk';
import type { AgentModelSettings } from './tables.ts';
import './tables.ts';

export const agentColumns = [
  'name', 'description', 'instructions', 'model', 'functions', 'max_iterations', 'token_budget',
  'emit_iteration_events', 'version', 'created_at', 'updated_at',
] as const;

export interface AgentValues {
  name: string;
  description: string;
  instructions: string;
  model: AgentModelSettings;
  functions: string[];
  max_iterations: number;
  token_budget: number;
  emit_iteration_events: boolean;
}

export const agentsStore = {
  insert: (trx: TenantTransaction, tenantId: string, values: AgentValues) =>
    trx.insertInto('chat_agents')
      .values({ ...values, tenant_id: tenantId, model: JSON.stringify(values.model) })
      .returning([...agentColumns]).executeTakeFirstOrThrow(),

  list: async (trx: TenantTransaction, skip: number, limit: number) => {
    const [items, count] = await Promise.all([
      trx.selectFrom('chat_agents').select([...agentColumns]).orderBy('name').offset(skip).limit(limit).execute(),
      trx.selectFrom('chat_agents').select(trx.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items, total: Number(count.n) };
  },

  get: (trx: TenantTransaction, name: string) =>
    trx.selectFrom('chat_agents').select([...agentColumns]).where('name', '=', name).executeTakeFirst(),

  getForUpdate: (trx: TenantTransaction, name: string) =>
    trx.selectFrom('chat_agents').select([...agentColumns]).where('name', '=', name).forUpdate().executeTakeFirst(),

  update: (trx: TenantTransaction, name: string, values: AgentValues) =>
    trx.updateTable('chat_agents')
      .set({
        description: values.description, instructions: values.instructions, model: JSON.stringify(values.model),
        functions: values.functions, max_iterations: values.max_iterations, token_budget: values.token_budget,
        emit_iteration_events: values.emit_iteration_events,
        version: sql`version + 1` as never, updated_at: sql`now()` as never,
      })
      .where('name', '=', name).returning([...agentColumns]).executeTakeFirstOrThrow(),

  delete: async (trx: TenantTransaction, name: string) =>
    (await trx.deleteFrom('chat_agents').where('name', '=', name).returning(['version']).executeTakeFirst())?.version,
};

export const clientAgentsStore = {
  set: (trx: TenantTransaction, tenantId: string, clientId: number, agentName: string) =>
    trx.insertInto('chat_client_agents').values({ tenant_id: tenantId, client_id: clientId, agent_name: agentName })
      .onConflict((oc) => oc.columns(['tenant_id', 'client_id']).doUpdateSet({ agent_name: agentName, updated_at: sql`now()` as never }))
      .returning(['client_id', 'agent_name', 'updated_at']).executeTakeFirstOrThrow(),
  get: (trx: TenantTransaction, clientId: number) =>
    trx.selectFrom('chat_client_agents').select(['client_id', 'agent_name', 'updated_at']).where('client_id', '=', clientId).executeTakeFirst(),
  clear: async (trx: TenantTransaction, clientId: number) =>
    (await trx.deleteFrom('chat_client_agents').where('client_id', '=', clientId).executeTakeFirst()).numDeletedRows > 0n,
  clientsUsing: async (trx: TenantTransaction, agentName: string) =>
    (await trx.selectFrom('chat_client_agents').select('client_id').where('agent_name', '=', agentName).orderBy('client_id').execute())
      .map((row) => row.client_id),
};

export const clientsStore = {
  byId: (trx: TenantTransaction, id: number) =>
    trx.selectFrom('clients').select(['id', 'client_key', 'name']).where('id', '=', id).executeTakeFirst(),
  byKey: (trx: TenantTransaction, key: string) =>
    trx.selectFrom('clients').select(['id', 'client_key', 'name']).where('client_key', '=', key).executeTakeFirst(),
  /** The client's row as the tenancy plugin's GraphQL Client shows it. */
  record: (trx: TenantTransaction, id: number) =>
    trx.selectFrom('clients').select(['id', 'client_key', 'name', 'created_at']).where('id', '=', id).executeTakeFirst(),
  /** The tenant's default client: its oldest. */
  oldest: (trx: TenantTransaction) =>
    trx.selectFrom('clients').select(['id', 'client_key', 'name']).orderBy('id').limit(1).executeTakeFirst(),
};
