// Generic run records: what an external
// orchestrator reports about the runs it makes of a transform. A state
// machine: pending → running (start) → succeeded (complete) or failed (fail);
// pending or running → cancelled (cancel), pending → failed (fail). Anything
// else is 409 RUN_STATE_CONFLICT and changes nothing.
import { conflict, notFound, type TenantTransaction } from 'agent-platform/sdk';
import type { TransformsContext } from './context.ts';
import type { TransformService } from './transforms.ts';
import { genericRunsStore, type GenericRunRow } from '../store/generic-runs.ts';
import type { GenericRunStatus } from '../store/tables.ts';

export type RunAction = 'start' | 'complete' | 'fail' | 'cancel';

const TRANSITIONS: Record<RunAction, { from: GenericRunStatus[]; to: GenericRunStatus }> = {
  start: { from: ['pending'], to: 'running' },
  complete: { from: ['running'], to: 'succeeded' },
  fail: { from: ['pending', 'running'], to: 'failed' },
  cancel: { from: ['pending', 'running'], to: 'cancelled' },
};

export function genericRunView(row: GenericRunRow) {
  return { ...row, is_terminal: ['succeeded', 'failed', 'cancelled'].includes(row.status) };
}

export function createGenericRunService(context: TransformsContext, transforms: TransformService) {
  const { core } = context;

  async function find(trx: TenantTransaction, id: string, lock = false): Promise<GenericRunRow> {
    const row = /^\d{1,19}$/.test(id) ? await genericRunsStore.find(trx, id, lock) : undefined;
    if (!row) throw notFound(`Run ${id} does not exist`, 'RUN_NOT_FOUND');
    return row;
  }

  return {
    create: (tenantId: string, input: { triggering_transform_id: string; orchestrator_run_id?: string; job_name?: string; metadata?: Record<string, unknown> }, createdBy: string | null) =>
      core.withTenant(tenantId, async (trx) => {
        await transforms.find(trx, input.triggering_transform_id);
        const id = await genericRunsStore.insert(trx, tenantId, {
          triggering_transform_id: input.triggering_transform_id, orchestrator_run_id: input.orchestrator_run_id ?? null,
          job_name: input.job_name ?? null, metadata: input.metadata ?? {}, created_by: createdBy,
        });
        return genericRunView(await find(trx, id));
      }),

    get: (tenantId: string, id: string) => core.withTenant(tenantId, async (trx) => genericRunView(await find(trx, id))),

    list: (tenantId: string, filter: { status?: string; transformId?: string; orchestratorRunId?: string; limit: number; offset: number }) =>
      core.withTenant(tenantId, async (trx) => ({ items: (await genericRunsStore.list(trx, filter)).map(genericRunView), limit: filter.limit, offset: filter.offset })),

    transition: (tenantId: string, id: string, action: RunAction, body: { message?: string; metadata?: Record<string, unknown> }) =>
      core.withTenant(tenantId, async (trx) => {
        const run = await find(trx, id, true);
        const { from, to } = TRANSITIONS[action];
        if (!from.includes(run.status)) throw conflict(`A ${run.status} run cannot ${action} (from ${from.join(' or ')} only)`, 'RUN_STATE_CONFLICT');
        const now = new Date();
        await genericRunsStore.set(trx, id, {
          status: to, ...(body.message !== undefined ? { message: body.message } : {}),
          ...(body.metadata ? { metadata: { ...run.metadata, ...body.metadata } } : {}),
          ...(action === 'start' ? { started_at: now } : { finished_at: now }),
        });
        return genericRunView(await find(trx, id));
      }),
  };
}

export type GenericRunService = ReturnType<typeof createGenericRunService>;
