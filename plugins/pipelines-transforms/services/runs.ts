// Transform runs: queued by a trigger (manual,
// schedule, pipeline, /execute, /materialize), executed by the run task
// (every run, `wait: true` too: its caller waits for the end), with logs and
// artifacts (compiled SQL, logs, output summary) written with the outcome and its event (transform.run.completed|failed).
// Cancel really stops the SQL: the run row holds the backend pid and session
// tag of its statement, and cancel calls pg_cancel_backend on it.
// Crash safety: a run executed by its job records the job's attempt on the
// row. A retried attempt (the worker died: its heartbeat stopped, or the job
// expired) takes a `running` run over from a lower attempt, stops the dead
// attempt's statement if it still runs, and materializes again (the write is
// one transaction: a dead attempt wrote nothing). Only the attempt that owns
// the row ends it, once; a job out of attempts (dead letter) fails it.
import { conflict, type KeysetPage, notFound, type TenantTransaction } from 'agent-platform/sdk';
import type { TransformsContext } from './context.ts';
import { EVENT_SOURCE, RUN_COMPLETED, RUN_FAILED } from '../event-types.ts';
import { cancelledError } from '../materialization/materialize.ts';
import { artifactsStore } from '../store/artifacts.ts';
import { runsStore, type LogLine, type RunFilter, type RunRow } from '../store/runs.ts';
import { tenantSqlStore } from '../store/tenant-sql.ts';
import { transformsStore, type TransformRow } from '../store/transforms.ts';
import type { RunTrigger } from '../store/tables.ts';
import { runRecord, runView } from '../views/runs.ts';

export const RUN_TASK = 'pipelines-transforms.run';

/** The run job's attempt executing a run (absent: attempt 0, a direct call). */
export interface RunAttempt { attempt: number; lastAttempt: boolean }

const TERMINAL = ['succeeded', 'failed', 'cancelled'];
const log = (level: LogLine['level'], message: string): LogLine => ({ at: new Date().toISOString(), level, message });

function failureOf(err: unknown): { code: string; message: string } {
  const payload = (err as { output?: { statusCode?: number; payload?: { code?: string; message?: string } } }).output;
  if (payload && (payload.statusCode ?? 500) < 500) return { code: payload.payload?.code ?? 'TRANSFORM_FAILED', message: payload.payload?.message ?? 'failed' };
  return { code: 'TRANSFORM_FAILED', message: 'The run failed on an internal error (see the server log)' };
}

export interface QueueOptions {
  trigger: RunTrigger;
  parameters?: Record<string, unknown>;
  orchestratorRunId?: string | null;
  pipelineRunId?: string | null;
  createdBy: string | null;
}

/** How often a caller waiting for a run (`wait: true`) reads it: from the first to the longest pause. */
const WAIT_POLL_MS = { first: 50, longest: 1000 };

export function createRunService(context: TransformsContext) {
  const { core } = context;

  async function findRun(trx: TenantTransaction, id: string, lock = false): Promise<RunRow> {
    const row = /^\d{1,19}$/.test(id) ? await runsStore.find(trx, id, lock) : undefined;
    if (!row) throw notFound(`Transform run ${id} does not exist`, 'TRANSFORM_RUN_NOT_FOUND');
    return row;
  }

  async function queue(trx: TenantTransaction, tenantId: string, transform: TransformRow, options: QueueOptions): Promise<string> {
    if (transform.status === 'archived') throw conflict('The transform is archived: set it active to run it', 'TRANSFORM_ARCHIVED');
    const id = await runsStore.insert(trx, tenantId, {
      transform_id: transform.id, trigger: options.trigger, parameters: options.parameters ?? {}, output_dataset: transform.output_dataset,
      orchestrator_run_id: options.orchestratorRunId ?? null, pipeline_run_id: options.pipelineRunId ?? null, created_by: options.createdBy,
    });
    await runsStore.appendLog(trx, id, log('info', `queued (${options.trigger})`));
    await enqueueRun(trx, tenantId, id);
    return id;
  }

  /** Every run goes through its job (`wait: true` too): a dead worker's run is retried, or failed by the dead letter. */
  function enqueueRun(trx: TenantTransaction, tenantId: string, runId: string) {
    return core.jobs.enqueueLong(RUN_TASK, { tenant_id: tenantId, run_id: runId }, { trx, group: tenantId });
  }

  /** `wait: true`: the run's view once its job has ended it. */
  async function waitForEnd(tenantId: string, runId: string) {
    let pause = WAIT_POLL_MS.first;
    for (;;) {
      const run = await core.withTenant(tenantId, async (trx) => findRun(trx, runId));
      if (TERMINAL.includes(run.status)) return runView(run);
      await new Promise((resolve) => setTimeout(resolve, pause));
      pause = Math.min(pause * 2, WAIT_POLL_MS.longest);
    }
  }

  /** Ends the run, unless it has ended or another attempt owns it (`owner` null: whoever owns it, the dead letter). */
  async function finish(tenantId: string, run: RunRow, transform: TransformRow, owner: number | null, outcome:
    { ok: true; rows: number; snapshotId: string | null; columns: { name: string; type: string }[]; compiledSql: string; durationMs: number }
    | { ok: false; error: { code: string; message: string } }) {
    return core.withTenant(tenantId, async (trx) => {
      const current = await findRun(trx, run.id, true);
      if (TERMINAL.includes(current.status) || (owner !== null && current.attempts !== owner)) return runView(current);
      const status = outcome.ok ? 'succeeded' : current.cancel_requested || outcome.error.code === 'TRANSFORM_CANCELLED' ? 'cancelled' : 'failed';
      const error = outcome.ok ? null : status === 'cancelled' ? { code: 'TRANSFORM_CANCELLED', message: 'The run was cancelled' } : outcome.error;
      await runsStore.set(trx, run.id, {
        status, finished_at: new Date(), backend_pid: null, error,
        ...(outcome.ok ? { rows: outcome.rows, snapshot_id: outcome.snapshotId, columns: outcome.columns, compiled_sql: outcome.compiledSql } : {}),
      });
      await runsStore.appendLog(trx, run.id, outcome.ok
        ? log('info', `succeeded: ${outcome.rows} row(s) into ${run.output_dataset} (snapshot ${outcome.snapshotId ?? 'none'}) in ${outcome.durationMs} ms`)
        : log('error', `${status}: ${error!.message}`));
      const logs = (await runsStore.logs(trx, run.id)) ?? [];
      await artifactsStore.insertMany(trx, tenantId, transform.id, run.id, [
        ...(outcome.ok ? [
          { kind: 'compiled_sql' as const, name: `run-${run.id}` + '.sql', content_type: 'application/sql', content: outcome.compiledSql },
          { kind: 'output_summary' as const, name: `run-${run.id}-output.json`, content_type: 'application/json', content: JSON.stringify({ dataset_id: run.output_dataset, snapshot_id: outcome.snapshotId, rows: outcome.rows, columns: outcome.columns, duration_ms: outcome.durationMs }) },
        ] : []),
        { kind: 'logs', name: `run-${run.id}.log.json`, content_type: 'application/json', content: JSON.stringify(logs) },
      ]);
      await core.events.emit(trx, tenantId, {
        type: outcome.ok ? RUN_COMPLETED : RUN_FAILED, source: EVENT_SOURCE,
        data: {
          transform_id: transform.id, run_id: run.id, status, trigger: run.trigger, output_dataset: run.output_dataset, pipeline_run_id: run.pipeline_run_id,
          snapshot_id: outcome.ok ? outcome.snapshotId : null, rows: outcome.ok ? outcome.rows : null, error,
        },
      });
      return runView(await findRun(trx, run.id));
    });
  }

  /**
   * Executes a queued run (the run task): at most once at a time,
   * whoever gets the row first; a later attempt of the run job takes over a
   * run whose earlier attempt died.
   */
  async function execute(tenantId: string, runId: string, signal?: AbortSignal, job?: RunAttempt) {
    const owner = job?.attempt ?? 0;
    const claimed = await core.withTenant(tenantId, async (trx) => {
      const run = await findRun(trx, runId, true);
      const takeover = job !== undefined && run.status === 'running' && run.attempts < job.attempt;
      if (run.status !== 'queued' && !takeover) return null;
      const transform = await transformsStore.find(trx, run.transform_id);
      await runsStore.set(trx, runId, { status: 'running', started_at: run.started_at ?? new Date(), attempts: owner, backend_pid: null, session_tag: null });
      await runsStore.appendLog(trx, runId, takeover
        ? log('info', `attempt ${owner}: the previous attempt's worker died or its job expired; the materialization restarts`)
        : log('info', job ? `running (attempt ${owner})` : 'running'));
      const stale = takeover && run.backend_pid !== null && run.session_tag ? { pid: run.backend_pid, tag: run.session_tag } : null;
      return { run: { ...run, attempts: owner }, transform: transform!, stale };
    });
    if (!claimed) return core.withTenant(tenantId, async (trx) => runView(await findRun(trx, runId)));
    const { run, transform, stale } = claimed;
    // The dead attempt's statement may still run (its backend has not noticed the lost client): stop it.
    if (stale) await tenantSqlStore.cancel(core, stale.pid, stale.tag);
    if (run.cancel_requested) return finish(tenantId, run, transform, owner, { ok: false, error: { code: 'TRANSFORM_CANCELLED', message: 'cancelled' } });
    try {
      const result = await context.materialize(tenantId, {
        sql: transform.sql, parameters: transform.parameters, namespace: 'derived', table: context.lake().parseDatasetId(transform.output_dataset).table,
        materialization: transform.materialization, uniqueKey: transform.unique_key.length ? transform.unique_key : undefined,
        producer: { kind: 'transform', id: transform.id, name: transform.name }, signal,
      }, async (pid, tag) => {
        const cancelRequested = await core.withTenant(tenantId, async (trx) => {
          await runsStore.set(trx, runId, { backend_pid: pid, session_tag: tag });
          return (await findRun(trx, runId)).cancel_requested;
        });
        if (cancelRequested) throw cancelledError();
      }, run.parameters);
      return await finish(tenantId, run, transform, owner, { ok: true, ...result });
    } catch (err) {
      if (!(err as { isBoom?: boolean }).isBoom || (err as { output: { statusCode: number } }).output.statusCode >= 500) core.logger.error({ err, run: runId }, 'transform run failed');
      // The job's own signal (its expiry, a shutdown, a lost claim) is not a
      // user's cancel: with attempts left, the job fails and its retry takes
      // the run over; on the last attempt the run fails.
      const aborted = signal?.aborted && !(await core.withTenant(tenantId, async (trx) => (await findRun(trx, runId)).cancel_requested));
      if (aborted && job && !job.lastAttempt) {
        await core.withTenant(tenantId, (trx) => runsStore.appendLog(trx, runId, log('error', `attempt ${owner} interrupted (its job expired or its worker shut down); it will be retried`)));
        throw err;
      }
      const error = aborted ? { code: 'TRANSFORM_RUN_ABORTED', message: 'The run\'s job expired (PIPELINES_TRANSFORM_RUN_TIMEOUT_SECONDS) or its worker shut down' } : failureOf(err);
      return finish(tenantId, run, transform, owner, { ok: false, error });
    }
  }

  /** The run job is out of attempts (its dead letter): a run it left queued or running fails. */
  async function abandon(tenantId: string, runId: string) {
    const found = await core.withTenant(tenantId, async (trx) => {
      const run = /^\d{1,19}$/.test(runId) ? await runsStore.find(trx, runId) : undefined;
      if (!run || TERMINAL.includes(run.status)) return null;
      return { run, transform: (await transformsStore.find(trx, run.transform_id))! };
    });
    if (!found) return;
    if (found.run.backend_pid !== null && found.run.session_tag) await tenantSqlStore.cancel(core, found.run.backend_pid, found.run.session_tag);
    await finish(tenantId, found.run, found.transform, null, { ok: false, error: found.run.cancel_requested
      ? { code: 'TRANSFORM_CANCELLED', message: 'cancelled' }
      : { code: 'TRANSFORM_RUN_ABORTED', message: 'The run\'s job ran out of attempts: its worker died or it expired each time (PIPELINES_TRANSFORM_RUN_RETRY_LIMIT, PIPELINES_TRANSFORM_RUN_TIMEOUT_SECONDS)' } });
  }

  return {
    findRun,
    queue,
    enqueueRun,
    waitForEnd,
    execute,
    abandon,

    get: (tenantId: string, id: string) => core.withTenant(tenantId, async (trx) => runView(await findRun(trx, id))),

    /** api.getTransformRun: null when the tenant has no such run. */
    record: (tenantId: string, id: string) => core.withTenant(tenantId, async (trx) => {
      const row = /^\d{1,19}$/.test(id) ? await runsStore.find(trx, id) : undefined;
      return row ? runRecord(row) : null;
    }),

    list: (tenantId: string, filter: { transformId?: string; status?: string; limit: number; offset: number }) =>
      core.withTenant(tenantId, async (trx) => ({ items: (await runsStore.list(trx, filter)).map(runView), limit: filter.limit, offset: filter.offset })),

    /** A keyset page of runs, newest first (GraphQL; see runsStore.page). */
    page: (tenantId: string, filter: RunFilter, page: KeysetPage<string>) => core.withTenant(tenantId, (trx) => runsStore.page(trx, filter, page)),

    count: (tenantId: string, filter: RunFilter) => core.withTenant(tenantId, (trx) => runsStore.count(trx, filter)),

    logs: (tenantId: string, id: string) => core.withTenant(tenantId, async (trx) => {
      await findRun(trx, id);
      return { run_id: id, items: (await runsStore.logs(trx, id)) ?? [] };
    }),

    /** Queued: cancelled at once. Running: flagged, and its statement cancelled by backend pid. Terminal: 409. */
    async cancel(tenantId: string, id: string) {
      const target = await core.withTenant(tenantId, async (trx) => {
        const run = await findRun(trx, id, true);
        if (TERMINAL.includes(run.status)) throw conflict(`The run is already ${run.status}`, 'TRANSFORM_RUN_NOT_CANCELLABLE');
        if (run.status === 'queued') {
          await runsStore.set(trx, id, { status: 'cancelled', cancel_requested: true, finished_at: new Date(), error: { code: 'TRANSFORM_CANCELLED', message: 'The run was cancelled before it started' } });
          await runsStore.appendLog(trx, id, log('info', 'cancelled before it started'));
          return null;
        }
        await runsStore.set(trx, id, { cancel_requested: true });
        await runsStore.appendLog(trx, id, log('info', 'cancel requested'));
        return run.backend_pid !== null && run.session_tag ? { pid: run.backend_pid, tag: run.session_tag } : null;
      });
      if (target) await tenantSqlStore.cancel(core, target.pid, target.tag);
      return core.withTenant(tenantId, async (trx) => runView(await findRun(trx, id)));
    },
  };
}

export type RunService = ReturnType<typeof createRunService>;
