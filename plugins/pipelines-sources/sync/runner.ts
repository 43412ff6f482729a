// The pg-boss job of a sync run. Each attempt syncs the run's streams that
// have not succeeded yet (a stream commits with its rows, so an attempt after
// a crash or a failure redoes only what did not commit). While attempts
// remain, a failed stream makes the attempt fail and pg-boss retries it; the
// last attempt settles the run: succeeded, partial (some streams failed) or
// failed. A refusal of the source's person (SOURCE_OWNER_FORBIDDEN: a role
// lost, the tenant left) is permanent: the run fails at once, without
// retries, and the source's schedule is paused with that reason (resumed by
// an editor once the source acts for someone who may make its calls).
import type { TenantTransaction } from 'agent-platform/sdk';
import type { SourcesContext } from '../services/context.ts';
import { EVENT_SOURCE, SYNC_COMPLETED, SYNC_FAILED } from '../event-types.ts';
import type { SourceService } from '../services/sources.ts';
import { SOURCE_SCHEDULE } from '../schedule/fire.ts';
import { logsStore, runStreamsStore, runsStore } from '../store/runs.ts';
import { sourcesStore } from '../store/sources.ts';
import { streamsStore } from '../store/streams.ts';
import type { RunStatus } from '../store/tables.ts';
import type { SyncMetrics, SyncPhase } from './metrics.ts';
import { messageOf, sourceAccess, type SourceAccess } from './pattern-context.ts';
import { NO_ENABLED_STREAMS, noEnabledStreamsMessage } from './no-streams.ts';
import { isOwnerRefusal } from './source-owner.ts';
import { syncStream } from './stream-sync.ts';

export const SYNC_TASK = 'pipelines.sync';

export interface SyncJob {
  tenant_id: string;
  run_id: string;
}

const TERMINAL: RunStatus[] = ['succeeded', 'partial', 'failed'];

export function createSyncRunner(context: SourcesContext, sources: SourceService, metrics: SyncMetrics) {
  const { core } = context;

  /** Starts the attempt: the run is running, its streams planned, the source's access opened; undefined when nothing is left to do. */
  async function begin(job: SyncJob, attempt: number, signal: AbortSignal) {
    return core.withTenant(job.tenant_id, async (trx) => {
      const run = await runsStore.lock(trx, job.run_id);
      if (!run || TERMINAL.includes(run.status)) return undefined;
      const source = (await sourcesStore.find(trx, run.source_id))!;
      await runsStore.start(trx, run.id, attempt);
      const streams = (await streamsStore.list(trx, source.id))
        .filter((stream) => stream.enabled && (run.requested_streams === null || run.requested_streams.includes(stream.name)));
      await runStreamsStore.plan(trx, streams.map((stream) => ({
        tenant_id: job.tenant_id, run_id: run.id, stream_id: stream.id, stream_name: stream.name, namespace: stream.namespace,
        destination: stream.destination, sync_mode: stream.sync_mode, write_mode: stream.write_mode, cursor_before: stream.state.cursor ?? null,
      })));
      const done = new Set((await runStreamsStore.list(trx, run.id)).filter((r) => r.status === 'succeeded').map((r) => r.stream_id));
      const todo = streams.filter((stream) => !done.has(stream.id));
      await logsStore.add(trx, job.tenant_id, run.id, 'info', `attempt ${attempt}: ${todo.length} stream(s) to sync, ${done.size} already committed`);
      let access: SourceAccess | undefined;
      let problem: string | undefined;
      try {
        access = sourceAccess(context, job.tenant_id, source, await sources.storedCredentials(trx, job.tenant_id, source), signal);
      } catch (err) {
        problem = messageOf(err);
      }
      return { source, todo, access, problem, window: run.trigger, queuedSeconds: attempt === 1 ? (Date.now() - run.created_at.getTime()) / 1000 : undefined };
    });
  }

  /** The source stops: its schedule is paused (timer removed) with the reason as its last outcome. */
  async function pauseSchedule(trx: TenantTransaction, job: SyncJob, sourceId: string, reason: string) {
    const schedule = await core.schedules.get(trx, SOURCE_SCHEDULE, sourceId, { lock: true });
    if (!schedule || schedule.paused) return;
    await core.schedules.pause(trx, job.tenant_id, SOURCE_SCHEDULE, sourceId, { outcome: `paused: ${reason}` });
    await logsStore.add(trx, job.tenant_id, job.run_id, 'error', 'the source\'s schedule is paused: resume it once the source acts for someone who may make its calls');
  }

  async function settle(job: SyncJob, attempt: number, lastAttempt: boolean, problem: string | undefined, stop = false): Promise<boolean> {
    return core.withTenant(job.tenant_id, async (trx) => {
      const planned = await runStreamsStore.list(trx, job.run_id);
      const failed = planned.filter((r) => r.status !== 'succeeded');
      const succeeded = planned.length - failed.length;
      // Streams disabled after the run was queued: the run fails at once, saying so (a retry would read nothing either).
      const empty = planned.length === 0 && !problem;
      if (empty) problem = `${NO_ENABLED_STREAMS}: ${noEnabledStreamsMessage((await runsStore.find(trx, job.run_id))?.requested_streams)}`;
      if ((failed.length > 0 || problem) && !lastAttempt && !stop && !empty) {
        await logsStore.add(trx, job.tenant_id, job.run_id, 'warn', `attempt ${attempt} failed; it will be retried`);
        await runsStore.finish(trx, job.run_id, 'queued', problem ?? `${failed.length} stream(s) failed`);
        return true;
      }
      const status: RunStatus = problem || (failed.length > 0 && succeeded === 0) ? 'failed' : failed.length > 0 ? 'partial' : 'succeeded';
      const error = problem ?? (failed.length ? `${failed.length} stream(s) failed: ${failed.map((r) => r.stream_name).join(', ')}` : null);
      await runsStore.finish(trx, job.run_id, status, error);
      if (empty) await logsStore.add(trx, job.tenant_id, job.run_id, 'error', problem!);
      await logsStore.add(trx, job.tenant_id, job.run_id, status === 'succeeded' ? 'info' : 'error', `run ${status}`);
      const run = (await runsStore.find(trx, job.run_id))!;
      if (stop) await pauseSchedule(trx, job, run.source_id, problem ?? 'stopped');
      if (succeeded > 0) await sourcesStore.markActive(trx, run.source_id);
      const source = await sourcesStore.find(trx, run.source_id);
      await core.events.emit(trx, job.tenant_id, {
        type: status === 'failed' ? SYNC_FAILED : SYNC_COMPLETED,
        source: EVENT_SOURCE,
        data: {
          source_id: run.source_id, source_name: source?.name, sync_run_id: run.id, status, trigger: run.trigger, error,
          rows_read: run.rows_read, rows_added: run.rows_added, rows_removed: run.rows_removed,
          streams: planned.map((r) => ({ name: r.stream_name, destination: r.destination, status: r.status, snapshot_id: r.snapshot_id })),
        },
      });
      return false;
    });
  }

  return async function runSync(job: SyncJob, attempt: number, signal: AbortSignal): Promise<void> {
    const lastAttempt = attempt >= context.options.syncRetryLimit + 1;
    const attemptStart = performance.now();
    await context.patterns.refresh();
    const started = await begin(job, attempt, signal);
    if (!started) return;
    const { source, todo, access } = started;
    // Phases measured in this attempt; one that did not happen stays absent (sync/metrics.ts).
    const measured: Partial<Record<SyncPhase, number>> = {};
    if (started.queuedSeconds !== undefined) measured.queue_to_attempt_start = Math.max(0, started.queuedSeconds);
    let problem = started.problem;
    let stop = false;
    if (access) {
      const ready = performance.now();
      measured.attempt_start_to_source_ready = (ready - attemptStart) / 1000;
      for (const stream of todo) {
        try {
          await syncStream(context, job.tenant_id, job.run_id, source, stream, access);
        } catch (err) {
          const message = messageOf(err, access.redact);
          await core.withTenant(job.tenant_id, async (trx) => {
            await runStreamsStore.failed(trx, job.run_id, stream.id, message);
            await logsStore.add(trx, job.tenant_id, job.run_id, 'error', `stream ${stream.name} failed: ${message}`);
          });
          if (isOwnerRefusal(err)) {
            // Every other stream would be refused alike, at this attempt and the next.
            problem = message;
            stop = true;
            break;
          }
        }
        if (signal.aborted) {
          problem = 'the run was interrupted (shutdown or expiry)';
          break;
        }
      }
      measured.source_ready_to_streams_done = (performance.now() - ready) / 1000;
    }
    const settling = performance.now();
    const retry = await settle(job, attempt, lastAttempt, problem, stop);
    if (access && !signal.aborted) measured.streams_done_to_settled = (performance.now() - settling) / 1000;
    metrics.report({ window: started.window, jobName: SYNC_TASK }, measured, !retry);
    if (retry) throw new Error(`sync run ${job.run_id}: attempt ${attempt} failed`);
  };
}
