// compose-pipeline: asynchronous. The request is stored and a
// job enqueued in one transaction (202 with the execution id); the job asks
// the model for a pipeline draft whose DAG must pass the pipelines plugin's
// validateDag (one repair round-trip, then failed with the problems), and
// stores the validated draft. Nothing is created: the caller reviews the
// draft and POSTs it to /pipelines (or applies it declaratively).
import { notFound, type Principal } from 'agent-platform/sdk';
import type { AiContext } from './context.ts';
import { askJson, modelRequired } from '../llm/model.ts';
import { aiStore, type CompositionRow } from '../store/ai.ts';

export const COMPOSE_TASK = 'pipelines-ai.compose';

export interface ComposeJob { tenant_id: string; execution_id: string }
export interface ComposeRequest { prompt: string; inputs: string[]; name?: string }

interface Draft { name: string; description?: string; steps: Record<string, unknown>[] }

function view(row: CompositionRow) {
  return {
    execution_id: row.id, status: row.status, result: row.result, error: row.error,
    created_at: row.created_at, finished_at: row.finished_at,
  };
}

function errorOf(error: unknown): { code: string; message: string } {
  const boom = error as { isBoom?: boolean; isServer?: boolean; message?: string; output?: { payload?: { code?: string } } };
  if (boom.isBoom && !boom.isServer) return { code: boom.output?.payload?.code ?? 'COMPOSE_FAILED', message: boom.message ?? 'failed' };
  if (boom.isBoom && boom.output?.payload?.code) return { code: boom.output.payload.code, message: boom.message ?? 'failed' };
  return { code: 'COMPOSE_FAILED', message: 'The composition failed (see the server log)' };
}

export function createComposeService(context: AiContext) {
  const { core } = context;

  async function compose(tenantId: string, request: ComposeRequest): Promise<Record<string, unknown>> {
    const model = modelRequired(context.model, 'compose-pipeline');
    const datasets = [];
    for (const id of request.inputs) {
      const { dataset, columns } = await context.profile(tenantId, id);
      datasets.push({ id: dataset.id, columns: columns.map((c) => ({ name: c.name, type: c.type })) });
    }
    let order: string[] = [];
    const draft = await askJson<Draft>(model, [
      {
        role: 'system',
        content: 'You compose data pipelines: ordered steps forming a DAG. Answer one JSON object: {"name": [A-Za-z0-9_], "description": short, "steps": [{"id": [A-Za-z0-9_-], "sql": one read-only PostgreSQL SELECT over dataset ids or over the outputs of earlier steps (derived.<tenant>.<output>), "output": the step\'s output table [A-Za-z0-9_], "inputs": [dataset ids or step ids]}]}. Only the datasets given may be read.',
      },
      { role: 'user', content: JSON.stringify({ request: request.prompt, tenant: tenantId, datasets }) },
    ], async (value) => {
      const steps = (value as Draft).steps;
      if (!Array.isArray(steps) || !steps.length) return ['"steps" must be a non-empty array'];
      if (typeof (value as Draft).name !== 'string' || !/^[A-Za-z0-9_]{1,63}$/.test((value as Draft).name)) return ['"name" must be [A-Za-z0-9_], 1-63 characters'];
      const validation = await context.pipelines().validateDag(tenantId, steps);
      order = validation.order;
      return validation.errors.map((e) => `${e.code}: ${e.message}${e.steps?.length ? ` (steps ${e.steps.join(', ')})` : ''}`);
    });
    return { pipeline: { name: request.name ?? draft.name, description: typeof draft.description === 'string' ? draft.description.slice(0, 2000) : '', steps: draft.steps }, validation: { valid: true, order } };
  }

  return {
    /** 503 MODEL_NOT_CONFIGURED before anything is stored; datasets are checked when the job runs. */
    async start(tenantId: string, principal: Principal, request: ComposeRequest) {
      modelRequired(context.model, 'compose-pipeline');
      for (const id of request.inputs) await context.lake().readable(tenantId, id);
      return core.withTenant(tenantId, async (trx) => {
        const row = await aiStore.insertComposition(trx, tenantId, request as unknown as Record<string, unknown>, principal.sub ?? null);
        await core.jobs.enqueueLong(COMPOSE_TASK, { tenant_id: tenantId, execution_id: row.id } satisfies ComposeJob, { trx, group: tenantId });
        return view(row);
      });
    },

    status: (tenantId: string, id: string) => core.withTenant(tenantId, async (trx) => {
      const row = await aiStore.findComposition(trx, id);
      if (!row) throw notFound(`No compose-pipeline execution "${id}"`, 'COMPOSITION_NOT_FOUND');
      return view(row);
    }),

    /**
     * One attempt of the job. A retry (the previous attempt's worker died, or
     * its job expired) takes the running execution over and composes again;
     * only the owning attempt ends it. Interrupted by its own job's signal with
     * attempts left, the attempt fails its job so the retry takes over.
     */
    async run(job: ComposeJob, attempt: { attempt: number; lastAttempt: boolean; signal?: AbortSignal }): Promise<void> {
      const row = await core.withTenant(job.tenant_id, (trx) => aiStore.markRunning(trx, job.execution_id, attempt.attempt));
      if (!row) return;
      let outcome: { status: 'succeeded'; result: Record<string, unknown> } | { status: 'failed'; error: { code: string; message: string } };
      try {
        outcome = { status: 'succeeded', result: await compose(job.tenant_id, row.request as unknown as ComposeRequest) };
      } catch (error) {
        const failure = errorOf(error);
        if (failure.code === 'COMPOSE_FAILED') core.logger.error({ err: error, execution_id: row.id }, 'compose-pipeline failed');
        outcome = { status: 'failed', error: failure };
      }
      if (attempt.signal?.aborted && !attempt.lastAttempt) throw new Error(`compose-pipeline ${row.id}: attempt ${attempt.attempt} interrupted; retried`);
      const { status, ...rest } = outcome;
      await core.withTenant(job.tenant_id, (trx) => aiStore.finish(trx, row.id, attempt.attempt, status, rest));
    },

    /** The job is out of attempts (its dead letter): an execution it left queued or running fails. */
    abandon: (job: ComposeJob) => core.withTenant(job.tenant_id, (trx) => aiStore.finish(trx, job.execution_id, null, 'failed', {
      error: { code: 'COMPOSE_ABORTED', message: 'The composition\'s job ran out of attempts: its worker died or it expired each time (PIPELINES_AI_COMPOSE_RETRY_LIMIT)' },
    })),
  };
}

export type ComposeService = ReturnType<typeof createComposeService>;
