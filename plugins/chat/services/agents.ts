// Agent definitions: CRUD with definition.* events, and each client's default
// agent. Knows nothing of HTTP; routes and the CLI call this.
import { badRequest, conflict, type CoreServices, notFound } from 'agent-platform/sdk';
import type { Emit } from '../events/emitter.ts';
import { agentsStore, clientAgentsStore, clientsStore, type AgentValues } from '../store/agents.ts';

export type AgentInput = Partial<AgentValues> & { name?: string };

const FIELDS = ['description', 'instructions', 'model', 'functions', 'max_iterations', 'token_budget', 'emit_iteration_events'] as const;
const DEFAULTS: Omit<AgentValues, 'name'> = {
  description: '', instructions: '', model: {}, functions: [], max_iterations: 10, token_budget: 100_000, emit_iteration_events: false,
};

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const missing = (name: string) => notFound(`Agent not found: ${name}`, 'AGENT_NOT_FOUND');

function view(row: Awaited<ReturnType<typeof agentsStore.get>> & {}) {
  return { ...row, model: row.model ?? {} };
}

export function createAgentsService(core: Pick<CoreServices, 'withTenant' | 'functions'>, emit: Emit) {
  const { withTenant } = core;

  /** Every granted function must exist for the tenant now (ask_user is this plugin's own). */
  async function checkFunctions(tenantId: string, names: string[]): Promise<void> {
    if (names.length === 0) return;
    const known = new Set((await core.functions.list(tenantId)).map((f) => f.name));
    const unknown = names.filter((name) => !known.has(name));
    if (unknown.length > 0) throw badRequest(`Unknown functions: ${unknown.join(', ')}`, 'UNKNOWN_FUNCTION');
  }

  const event = (type: string, data: Record<string, unknown>) => ({ type, data: { definition_type: 'agent', ...data } });

  const service = {
    async create(tenantId: string, input: AgentValues) {
      const values: AgentValues = { ...DEFAULTS, ...input };
      await checkFunctions(tenantId, values.functions);
      try {
        return await withTenant(tenantId, async (trx) => {
          const row = await agentsStore.insert(trx, tenantId, values);
          const created = event('definition.created', { name: row.name, version: row.version });
          await emit(trx, tenantId, created.type, created.data);
          return view(row);
        });
      } catch (err) {
        if ((err as { code?: string }).code === '23505') throw conflict(`Agent already exists: ${input.name}`, 'AGENT_EXISTS');
        throw err;
      }
    },

    async list(tenantId: string, skip: number, limit: number) {
      const page = await withTenant(tenantId, (trx) => agentsStore.list(trx, skip, limit));
      return { ...page, items: page.items.map(view) };
    },

    async get(tenantId: string, name: string) {
      const row = await withTenant(tenantId, (trx) => agentsStore.get(trx, name));
      if (!row) throw missing(name);
      return view(row);
    },

    /** Fields left out are kept; the version goes up only when something changed. */
    async update(tenantId: string, name: string, input: AgentInput) {
      if (input.name !== undefined && input.name !== name) throw badRequest('name cannot be changed', 'VALIDATION_FAILED');
      if (input.functions) await checkFunctions(tenantId, input.functions);
      return withTenant(tenantId, async (trx) => {
        const current = await agentsStore.getForUpdate(trx, name);
        if (!current) throw missing(name);
        const next: AgentValues = { name, ...Object.fromEntries(FIELDS.map((f) => [f, input[f] ?? current[f]])) } as AgentValues;
        const changed = FIELDS.filter((f) => input[f] !== undefined && !same(input[f], current[f]));
        if (changed.length === 0) return view(current);
        const row = await agentsStore.update(trx, name, next);
        const updated = event('definition.updated', { name, version: row.version, changed_fields: changed });
        await emit(trx, tenantId, updated.type, updated.data);
        return view(row);
      });
    },

    async remove(tenantId: string, name: string) {
      await withTenant(tenantId, async (trx) => {
        const clients = await clientAgentsStore.clientsUsing(trx, name);
        if (clients.length > 0) {
          const error = conflict(`Agent ${name} is the default agent of clients ${clients.join(', ')}: change those first`, 'AGENT_IN_USE');
          (error.output.payload as Record<string, unknown>).client_ids = clients;
          throw error;
        }
        const version = await agentsStore.delete(trx, name);
        if (version === undefined) throw missing(name);
        const deleted = event('definition.deleted', { name, version });
        await emit(trx, tenantId, deleted.type, deleted.data);
      });
    },

    async getClientAgent(tenantId: string, clientId: number) {
      return withTenant(tenantId, async (trx) => {
        if (!(await clientsStore.byId(trx, clientId))) throw notFound(`Client not found: ${clientId}`, 'CLIENT_NOT_FOUND');
        const row = await clientAgentsStore.get(trx, clientId);
        return { client_id: clientId, agent_name: row?.agent_name ?? null, builtin: !row, updated_at: row?.updated_at ?? null };
      });
    },

    async setClientAgent(tenantId: string, clientId: number, agentName: string) {
      return withTenant(tenantId, async (trx) => {
        if (!(await clientsStore.byId(trx, clientId))) throw notFound(`Client not found: ${clientId}`, 'CLIENT_NOT_FOUND');
        if (!(await agentsStore.get(trx, agentName))) throw missing(agentName);
        const row = await clientAgentsStore.set(trx, tenantId, clientId, agentName);
        return { client_id: clientId, agent_name: row.agent_name, builtin: false, updated_at: row.updated_at };
      });
    },

    async clearClientAgent(tenantId: string, clientId: number) {
      await withTenant(tenantId, async (trx) => {
        if (!(await clientsStore.byId(trx, clientId))) throw notFound(`Client not found: ${clientId}`, 'CLIENT_NOT_FOUND');
        await clientAgentsStore.clear(trx, clientId);
      });
    },
  };
  return service;
}

export type AgentsService = ReturnType<typeof createAgentsService>;
