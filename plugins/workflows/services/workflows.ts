// Workflows domain logic: definitions (validated by the engine, versioned,
// announced with definition.* events) and executions (read here, driven by
// the runner). Knows nothing of HTTP; routes, GraphQL and the CLI call this.
import { badRequest, conflict, type CoreServices, type KeysetPage, notFound } from 'agent-platform/sdk';
import { validateDefinition, type ExecutionStatus, type Step } from '../../../workflows/engine/index.ts';
import type { WorkflowOrigin } from '../api.ts';
import type { GateRegistry } from '../execution/gates.ts';
import { EVENT_SOURCE } from '../execution/events.ts';
import type { Runner } from '../execution/runner.ts';
import { definitionsStore, executionsStore, type ExecutionFilter } from '../store/workflows.ts';
import { executionGraphView, executionView, summaryView } from '../views/view.ts';

export interface DefinitionInput {
  name: string;
  description?: string;
  steps: unknown[];
}

function checked(value: { name: string; description: string; steps: unknown }, gates: GateRegistry) {
  const result = validateDefinition(value);
  // A gate step (APPROVAL) is valid only where the plugin that resolves it is loaded.
  const errors = result.ok
    ? result.definition.steps.flatMap((step) => {
      const missing = gates.missing(step.type);
      return missing ? [`step "${step.id}": ${missing}`] : [];
    })
    : result.errors;
  if (!result.ok || errors.length > 0) {
    const error = badRequest(`Invalid workflow definition: ${errors.join('; ')}`, 'INVALID_DEFINITION');
    (error.output.payload as Record<string, unknown>).errors = errors;
    throw error;
  }
  return result.definition;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const missingExecution = (id: string) => notFound(`Execution not found: ${id}`, 'EXECUTION_NOT_FOUND');

export function createWorkflowsService(core: Pick<CoreServices, 'withTenant' | 'events'>, runner: Runner, gates: GateRegistry) {
  const { withTenant, events } = core;

  const definitionEvent = (type: string, data: Record<string, unknown>) => ({
    type, source: EVENT_SOURCE, data: { definition_type: 'workflow', ...data },
  });

  const service = {
    async createDefinition(tenantId: string, input: DefinitionInput) {
      const definition = checked({ name: input.name, description: input.description ?? '', steps: input.steps }, gates);
      try {
        return await withTenant(tenantId, async (trx) => {
          const row = await definitionsStore.insert(trx, {
            tenant_id: tenantId, name: definition.name, description: definition.description ?? '', steps: definition.steps,
          });
          await events.emit(trx, tenantId, definitionEvent('definition.created', { name: row.name, version: row.version }));
          return row;
        });
      } catch (err) {
        if ((err as { code?: string }).code === '23505') throw conflict(`Workflow already exists: ${input.name}`, 'WORKFLOW_EXISTS');
        throw err;
      }
    },

    listDefinitions: (tenantId: string, skip: number, limit: number) =>
      withTenant(tenantId, (trx) => definitionsStore.list(trx, skip, limit)),

    async getDefinition(tenantId: string, name: string) {
      const row = await withTenant(tenantId, (trx) => definitionsStore.get(trx, name));
      if (!row) throw notFound(`Workflow not found: ${name}`, 'WORKFLOW_NOT_FOUND');
      return row;
    },

    /** Changes the fields given; an update that changes nothing keeps the version and emits nothing. */
    updateDefinition(tenantId: string, name: string, input: { name?: string; description?: string; steps?: unknown[] }) {
      if (input.name !== undefined && input.name !== name) throw badRequest('A workflow cannot be renamed: create a new one', 'RENAME_NOT_ALLOWED');
      return withTenant(tenantId, async (trx) => {
        const current = await definitionsStore.lock(trx, name);
        if (!current) throw notFound(`Workflow not found: ${name}`, 'WORKFLOW_NOT_FOUND');
        const next = checked({ name, description: input.description ?? current.description, steps: input.steps ?? current.steps }, gates);
        const changed = [
          ...(same(next.description ?? '', current.description) ? [] : ['description']),
          ...(same(next.steps, current.steps) ? [] : ['steps']),
        ];
        if (changed.length === 0) return current;
        const row = await definitionsStore.update(trx, name, { description: next.description ?? '', steps: next.steps as Step[] });
        await events.emit(trx, tenantId, definitionEvent('definition.updated', { name, version: row.version, changed_fields: changed }));
        return row;
      });
    },

    deleteDefinition: (tenantId: string, name: string) =>
      withTenant(tenantId, async (trx) => {
        const deleted = await definitionsStore.delete(trx, name);
        if (!deleted) throw notFound(`Workflow not found: ${name}`, 'WORKFLOW_NOT_FOUND');
        await events.emit(trx, tenantId, definitionEvent('definition.deleted', { name, version: deleted.version }));
      }),

    execute: (tenantId: string, name: string, inputs: Record<string, unknown>, origin: WorkflowOrigin) =>
      withTenant(tenantId, (trx) => runner.start(trx, tenantId, name, inputs, origin)),

    async getExecution(tenantId: string, id: string) {
      const row = await withTenant(tenantId, (trx) => executionsStore.get(trx, id));
      if (!row) throw missingExecution(id);
      return executionView(row);
    },

    /** The execution or null, as GraphQL reads it (GraphQL's nullable field). */
    findExecution: async (tenantId: string, id: string) => {
      const row = await withTenant(tenantId, (trx) => executionsStore.get(trx, id));
      return row ? executionGraphView(row) : null;
    },

    async pendingEvents(tenantId: string, id: string) {
      const execution = await service.getExecution(tenantId, id);
      return { workflow_id: execution.execution_id, pending_events: execution.pending_events };
    },

    async listExecutions(tenantId: string, filter: ExecutionFilter, skip: number, limit: number) {
      const page = await withTenant(tenantId, (trx) => executionsStore.list(trx, filter, skip, limit));
      return { items: page.items.map(summaryView), total: page.total };
    },

    /** A keyset page of executions as GraphQL reads them (see executionsStore.page). */
    executionPage: async (tenantId: string, filter: ExecutionFilter, page: KeysetPage<string>) =>
      (await withTenant(tenantId, (trx) => executionsStore.page(trx, filter, page))).map(executionGraphView),

    countExecutions: (tenantId: string, filter: ExecutionFilter) => withTenant(tenantId, (trx) => executionsStore.count(trx, filter)),

    async cancelExecution(tenantId: string, id: string) {
      const result = await runner.cancel(tenantId, id);
      if (!result.found) throw missingExecution(id);
      if (!result.applied) throw conflict(`Execution ${id} has already ended`, 'EXECUTION_ENDED');
      return service.getExecution(tenantId, id);
    },
  };
  return service;
}

export type WorkflowsService = ReturnType<typeof createWorkflowsService>;
export type { ExecutionStatus };
