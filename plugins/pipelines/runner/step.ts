// One step of a run, as a pg-boss job. Three phases: claim (the step row,
// locked, says pending or running: a step already settled is never run
// again), materialize (the transforms api: its SQL as the tenant role, its
// output one snapshot of a derived dataset, or a sandbox table capped at
// PIPELINES_SANDBOX_MAX_ROWS), settle (in one transaction holding the run
// row: the step's result, the jobs of the steps it unblocks, the skipped
// downstream of a failure, the run's end and its event). A crash before the
// settle commits leaves the step running; pg-boss retries its job once the
// worker's heartbeat stops, and the step runs again (a table
// materialization replaces, an incremental one merges by key: the same
// output). SQL errors fail the step, not the job.
import type { TenantTransaction } from 'agent-platform/sdk';
import type { PipelinesContext } from '../services/context.ts';
import { resolveStep } from '../dag/validate.ts';
import type { DagError } from '../api.ts';
import { EVENT_SOURCE, RUN_COMPLETED, RUN_FAILED } from '../event-types.ts';
import { pipelinesStore, versionsStore } from '../store/pipelines.ts';
import { runsStore, type RunStepRow } from '../store/runs.ts';
import type { MaterializeResultPort } from './transforms-port.ts';
import { enqueueStep } from './start.ts';
import type { StepJob } from './step-job.ts';

const SETTLED = new Set(['succeeded', 'failed', 'skipped', 'cancelled']);

/** Cancellation of the steps running in this process (POST cancel aborts their statement). */
export const runningSteps = new Map<string, Set<AbortController>>();

/** Called in the settle transaction that ends a production run. */
export type AfterRun = (trx: TenantTransaction, tenantId: string, pipelineId: string) => Promise<void>;

export function createStepRunner(context: PipelinesContext, afterRun: AfterRun) {
  const { core } = context;

  async function claim(job: StepJob) {
    return core.withTenant(job.tenant_id, async (trx) => {
      const run = await runsStore.lock(trx, job.run_id);
      if (!run || run.status !== 'running') return null;
      const step = await runsStore.lockStep(trx, job.run_id, job.step_id);
      if (!step || SETTLED.has(step.status)) return null;
      await runsStore.setStep(trx, job.run_id, job.step_id, { status: 'running', started_at: new Date(), error: null });
      const [pipeline, version, steps] = await Promise.all([
        pipelinesStore.find(trx, run.pipeline_id), versionsStore.find(trx, run.pipeline_id, run.version), runsStore.steps(trx, run.id),
      ]);
      return { run, pipeline: pipeline!, versionSteps: version!.steps, spec: version!.steps.find((candidate) => candidate.id === job.step_id)!, steps };
    });
  }

  async function materialize(job: StepJob, claimed: NonNullable<Awaited<ReturnType<typeof claim>>>, signal: AbortSignal): Promise<MaterializeResultPort> {
    const { run, pipeline, spec, steps } = claimed;
    const errors: DagError[] = [];
    const step = await resolveStep(context, job.tenant_id, spec, errors);
    if (!step) throw new Error(errors.map((e) => e.message).join('; '));
    const output = steps.find((row) => row.step_id === job.step_id)!.output_dataset!;
    // Sandbox runs: production outputs of the pipeline's steps → their sandbox
    // tables, mapped by the transforms' parser on the relation names (any spelling).
    const relationMap: Record<string, string> = {};
    if (run.kind === 'sandbox') {
      const errorsOfOthers: DagError[] = [];
      for (const other of claimed.versionSteps) {
        const resolved = await resolveStep(context, job.tenant_id, other, errorsOfOthers);
        const sandbox = steps.find((row) => row.step_id === other.id)?.output_dataset;
        if (resolved && sandbox) relationMap[resolved.output] = sandbox;
      }
    }
    return context.transforms().materialize(job.tenant_id, {
      sql: step.sql, relationMap, parameters: step.parameters, namespace: run.kind === 'sandbox' ? 'sandbox' : 'derived',
      table: output.split('.').pop()!, materialization: run.kind === 'sandbox' ? 'table' : step.materialization,
      ...(step.uniqueKey.length && run.kind !== 'sandbox' ? { uniqueKey: step.uniqueKey } : {}),
      ...(run.kind === 'sandbox' ? { rowLimit: context.options.sandboxMaxRows } : {}),
      statementTimeoutMs: context.options.stepTimeoutSeconds * 1000,
      // Recorded on the step row so a cancel from any process stops this statement;
      // a cancel that landed before is honoured here.
      onBackend: async (pid, tag) => {
        const cancelled = await core.withTenant(job.tenant_id, async (trx) => {
          await runsStore.setStep(trx, job.run_id, job.step_id, { backend_pid: pid, session_tag: tag });
          return (await runsStore.find(trx, job.run_id))?.status === 'cancelled';
        });
        if (cancelled) throw new Error('cancelled');
      },
      producer: run.kind === 'sandbox' ? { kind: 'sandbox', id: pipeline.id, name: pipeline.name } : { kind: 'pipeline', id: pipeline.id, name: pipeline.name },
      signal,
    });
  }

  async function settle(job: StepJob, outcome: { result: MaterializeResultPort } | { error: string }, abandoned = false) {
    await core.withTenant(job.tenant_id, async (trx) => {
      const run = await runsStore.lock(trx, job.run_id);
      if (!run) return;
      // The dead letter settles only a step its attempts left unsettled: a step ends once.
      if (abandoned) {
        const step = await runsStore.lockStep(trx, job.run_id, job.step_id);
        if (!step || SETTLED.has(step.status)) return;
      }
      const now = new Date();
      if ('result' in outcome) {
        const { result } = outcome;
        await runsStore.setStep(trx, job.run_id, job.step_id, {
          status: 'succeeded', backend_pid: null, session_tag: null, snapshot_id: result.snapshotId, rows: result.rows, columns: result.columns,
          sample_rows: result.sampleRows.slice(0, 20), sql_ms: Math.round(result.durationMs), finished_at: now, error: null,
        });
      } else {
        // A statement stopped by the run's cancel (from any process) is a cancelled step, not a failure.
        const cancelled = run.status === 'cancelled';
        await runsStore.setStep(trx, job.run_id, job.step_id, {
          status: cancelled ? 'cancelled' : 'failed', error: cancelled ? 'cancelled' : outcome.error.slice(0, 2000), finished_at: now, backend_pid: null, session_tag: null,
        });
      }
      const steps = await runsStore.steps(trx, job.run_id);
      if (run.status === 'running') {
        if ('error' in outcome) await runsStore.settlePending(trx, job.run_id, downstreamOf(job.step_id, steps), 'skipped');
        else {
          for (const ready of readySteps(steps, job.step_id)) await enqueueStep(context, trx, { tenant_id: job.tenant_id, run_id: job.run_id, step_id: ready.step_id });
        }
      }
      const after = await runsStore.steps(trx, job.run_id);
      if (run.status === 'running' && after.every((step) => SETTLED.has(step.status))) {
        const failed = after.filter((step) => step.status === 'failed');
        const error = failed.length ? `step(s) ${failed.map((step) => step.step_id).join(', ')} failed` : null;
        await runsStore.finish(trx, job.run_id, failed.length ? 'failed' : 'succeeded', error);
        if (run.kind === 'production') {
          const pipeline = await pipelinesStore.find(trx, run.pipeline_id);
          await core.events.emit(trx, job.tenant_id, {
            type: failed.length ? RUN_FAILED : RUN_COMPLETED, source: EVENT_SOURCE,
            data: {
              pipeline_id: run.pipeline_id, pipeline_name: pipeline?.name ?? '', run_id: run.id, version: run.version, trigger: run.trigger,
              status: failed.length ? 'failed' : 'succeeded', ...(error ? { error } : {}),
              steps: after.map((step) => ({ step_id: step.step_id, status: step.status, output_dataset: step.output_dataset, snapshot_id: step.snapshot_id, rows: step.rows })),
            },
          });
          await afterRun(trx, job.tenant_id, run.pipeline_id);
        }
      }
    });
  }

  /**
   * The dead letter of a step job out of attempts (each one's worker died or
   * expired): the dead attempt's statement is cancelled should it still run,
   * and the step fails as a SQL error would (its dependents skipped, the run
   * ended with its event); a cancelled run's step ends cancelled.
   */
  async function abandonStep(job: StepJob): Promise<void> {
    const backend = await core.withTenant(job.tenant_id, (trx) => runsStore.stepBackend(trx, job.run_id, job.step_id));
    if (backend) await runsStore.cancelStatement(core.db, backend.backend_pid, backend.session_tag);
    await settle(job, { error: STEP_ABORTED }, true);
  }

  async function runStep(job: StepJob, signal: AbortSignal): Promise<void> {
    const claimed = await claim(job);
    if (!claimed) return;
    const controller = new AbortController();
    const onAbort = () => controller.abort();
    signal.addEventListener('abort', onAbort);
    const running = runningSteps.get(job.run_id) ?? new Set();
    running.add(controller);
    runningSteps.set(job.run_id, running);
    let outcome: { result: MaterializeResultPort } | { error: string };
    try {
      outcome = { result: await materialize(job, claimed, controller.signal) };
    } catch (error) {
      // A shutdown (not a cancel) is the job's failure: pg-boss retries it.
      if (signal.aborted) throw error;
      outcome = { error: controller.signal.aborted ? 'cancelled' : messageOf(error) };
    } finally {
      signal.removeEventListener('abort', onAbort);
      running.delete(controller);
      if (!running.size) runningSteps.delete(job.run_id);
    }
    await settle(job, outcome);
  }

  return { runStep, abandonStep };
}

export const STEP_ABORTED = 'STEP_ABORTED: the step\'s job ran out of attempts: its worker died or it expired each time (PIPELINES_STEP_RETRY_LIMIT, PIPELINES_STEP_TIMEOUT_SECONDS)';

function messageOf(error: unknown): string {
  const boom = error as { output?: { payload?: { message?: string; code?: string } }; message?: string };
  const payload = boom.output?.payload;
  return payload?.message ? `${payload.code ? `${payload.code}: ` : ''}${payload.message}` : String(boom.message ?? error);
}

/**
 * Pending steps downstream of the step just settled whose every dependency
 * succeeded: settles hold the run row one at a time, so only the settle of a
 * step's last dependency enqueues it, once.
 */
export function readySteps(steps: RunStepRow[], settled: string): RunStepRow[] {
  const status = new Map(steps.map((step) => [step.step_id, step.status]));
  return steps.filter((step) => step.status === 'pending' && step.depends_on.includes(settled) && step.depends_on.every((dep) => status.get(dep) === 'succeeded'));
}

/** Every step downstream of one (transitively). */
export function downstreamOf(stepId: string, steps: RunStepRow[]): string[] {
  const found = new Set<string>();
  const frontier = [stepId];
  while (frontier.length) {
    const current = frontier.pop()!;
    for (const step of steps) {
      if (step.depends_on.includes(current) && !found.has(step.step_id)) {
        found.add(step.step_id);
        frontier.push(step.step_id);
      }
    }
  }
  return [...found];
}
