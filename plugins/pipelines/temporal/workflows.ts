// The orchestrator workflows of /temporal/workflows: schema-match (computed
// at once, its result stored), transform (a transform run started through
// the transforms api, followed and cancelled through that api), pipeline
// (a production run of an active pipeline: the workflow id is the run id).
// Ids are opaque uuids, looked up in the caller's tenant only (another
// tenant's id is 404).
import { conflict, notFound } from 'agent-platform/sdk';
import type { PipelinesContext } from '../services/context.ts';
import type { RunService } from '../services/runs.ts';
import { workflowsStore, type WorkflowRow } from '../store/workflows.ts';
import type { RunView } from '../views/view.ts';
import { matchSchemas, type Column } from './schema-match.ts';

const TERMINAL = new Set(['succeeded', 'failed', 'cancelled']);
const POLL_MS = 250;

export interface WorkflowView {
  workflow_id: string;
  workflow_type: string;
  status: string;
  is_terminal: boolean;
  started_at: Date;
  finished_at: Date | null;
  error: string | null;
  result: Record<string, unknown>;
}

function fromRun(run: RunView): WorkflowView {
  return {
    workflow_id: run.id, workflow_type: run.kind === 'sandbox' ? 'pipeline-sandbox' : 'pipeline', status: run.status,
    is_terminal: TERMINAL.has(run.status), started_at: run.started_at, finished_at: run.finished_at, error: run.error,
    result: { pipeline_id: run.pipeline_id, version: run.version, trigger: run.trigger, steps: run.steps },
  };
}

function fromRow(row: WorkflowRow): WorkflowView {
  return {
    workflow_id: row.id, workflow_type: row.kind, status: row.status, is_terminal: TERMINAL.has(row.status),
    started_at: row.created_at, finished_at: row.finished_at, error: row.error, result: { ...row.input, ...(row.result ?? {}) },
  };
}


const TRANSFORM_TERMINAL = new Set(['succeeded', 'failed', 'cancelled']);

export function createWorkflowService(context: PipelinesContext, runs: RunService) {
  const { core } = context;

  /**
   * A transform workflow follows its transform run (the transforms api; the
   * routes checked the caller's role); a terminal status is kept.
   */
  async function followTransform(tenantId: string, row: WorkflowRow): Promise<WorkflowRow> {
    const runId = (row.result as { transform_run_id?: string } | null)?.transform_run_id;
    const transforms = context.transformsOrNull();
    if (row.kind !== 'transform' || row.status !== 'running' || !runId || !transforms) return row;
    const read = await transforms.getTransformRun(tenantId, runId);
    if (!read) return row;
    const result = { ...(row.result ?? {}), transform_run: { ...read } };
    if (!TRANSFORM_TERMINAL.has(read.status)) return { ...row, result };
    const error = read.error ? `${read.error.code}: ${read.error.message}` : null;
    await core.withTenant(tenantId, (trx) => workflowsStore.settle(trx, row.id, read.status as 'succeeded' | 'failed' | 'cancelled', result, error));
    return { ...row, status: read.status as WorkflowRow['status'], result, error, finished_at: new Date() };
  }

  async function find(tenantId: string, id: string): Promise<WorkflowView> {
    const run = await runs.find(tenantId, id);
    if (run) return fromRun(run);
    const row = await core.withTenant(tenantId, (trx) => workflowsStore.find(trx, id));
    if (!row) throw notFound(`workflow ${id} not found`, 'WORKFLOW_NOT_FOUND');
    return fromRow(await followTransform(tenantId, row));
  }

  async function columnsOf(tenantId: string, datasetId: string): Promise<Column[]> {
    const dataset = await context.lake().readable(tenantId, datasetId);
    return dataset.columns.map((column) => ({ name: column.name, type: column.type }));
  }

  return {
    find,

    schemaMatch: async (tenantId: string, input: { source_dataset: string; target_dataset?: string; target_schema?: Column[] }, createdBy: string | null) => {
      const source = await columnsOf(tenantId, input.source_dataset);
      const target = input.target_schema ?? await columnsOf(tenantId, input.target_dataset!);
      const result = matchSchemas(source, target);
      const row = await core.withTenant(tenantId, (trx) => workflowsStore.insert(trx, {
        tenant_id: tenantId, kind: 'schema-match', status: 'succeeded', input: { ...input }, result: { ...result }, error: null, created_by: createdBy, finished: true,
      }));
      return fromRow(row);
    },

    transform: async (tenantId: string, transformId: string, createdBy: string | null) => {
      const transforms = context.transforms();
      if (!await transforms.getTransform(tenantId, transformId)) throw notFound(`transform ${transformId} not found`, 'TRANSFORM_NOT_FOUND');
      const transformRunId = await transforms.runTransform(tenantId, transformId, { kind: 'manual' });
      const row = await core.withTenant(tenantId, (trx) => workflowsStore.insert(trx, {
        tenant_id: tenantId, kind: 'transform', status: 'running', input: { transform_id: transformId },
        result: { transform_run_id: transformRunId, transform_run: `/api/v1/transform-runs/${transformRunId}` }, error: null, created_by: createdBy, finished: false,
      }));
      return fromRow(row);
    },

    pipeline: async (tenantId: string, pipelineId: string, createdBy: string | null) => find(tenantId, (await runs.runNow(tenantId, pipelineId, createdBy)).id),

    cancel: async (tenantId: string, id: string) => {
      const current = await find(tenantId, id);
      if (current.workflow_type === 'pipeline' || current.workflow_type === 'pipeline-sandbox') return fromRun(await runs.cancel(tenantId, id));
      if (current.is_terminal) throw conflict(`workflow ${id} is already ${current.status}`, 'WORKFLOW_TERMINAL');
      const runId = String((current.result as { transform_run_id?: string }).transform_run_id);
      try {
        await context.transforms().cancelTransformRun(tenantId, runId);
      } catch (err) {
        const payload = (err as { output?: { payload?: { message?: string } } }).output?.payload;
        throw conflict(`the transform run ${runId} could not be cancelled: ${payload?.message ?? 'the transforms plugin refused'}`, 'WORKFLOW_NOT_CANCELLABLE');
      }
      return find(tenantId, id);
    },

    /** Long-poll until terminal or timeout_seconds (clamped to PIPELINES_WAIT_MAX_SECONDS). */
    wait: async (tenantId: string, id: string, timeoutSeconds: number, signal?: AbortSignal) => {
      const deadline = Date.now() + Math.min(timeoutSeconds, context.options.waitMaxSeconds) * 1000;
      let current = await find(tenantId, id);
      while (!current.is_terminal && Date.now() < deadline && !signal?.aborted) {
        await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, Math.max(0, deadline - Date.now()))));
        current = await find(tenantId, id);
      }
      return { ...current, timed_out: !current.is_terminal };
    },
  };
}

export type WorkflowService = ReturnType<typeof createWorkflowService>;
