// What the benchmarks use to say where the time goes: a CPU profile of the
// benchmark's own process while some work runs, and the statements that took
// the database's time (when pg_stat_statements is preloaded:
// TEST_DB_OPTIONS="-c shared_preload_libraries=pg_stat_statements").
import { writeFile } from 'node:fs/promises';
import type pg from 'pg';

type InspectorSession = import('node:inspector/promises').Session;

/** Runs `work` between `start` and `stop` on an inspector session of this process; writes what `stop` returns to `file`. */
async function inspected<T>(
  file: string | undefined, work: () => Promise<T>,
  start: (session: InspectorSession) => Promise<unknown>, stop: (session: InspectorSession) => Promise<unknown>,
): Promise<T> {
  if (!file) return work();
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await start(session);
  try {
    return await work();
  } finally {
    await writeFile(file, JSON.stringify(await stop(session)));
    session.disconnect();
  }
}

/** A CPU profile (node:inspector) of this process while `work` runs, written to `file`; without a file, just the work. */
export function cpuProfiled<T>(file: string | undefined, work: () => Promise<T>): Promise<T> {
  return inspected(file, work, async (session) => {
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }, async (session) => (await session.post('Profiler.stop')).profile);
}

/**
 * A sampling heap profile (node:inspector) of what `work` allocated that
 * outlived the young generation: samples of objects a scavenge collected are
 * dropped, those of objects promoted (even if a full collection freed them
 * later) are kept. What the scavenges copy, and so how long they stop the
 * process, is in there. Written to `file` (open it in Chrome's DevTools,
 * Memory tab); without a file, just the work.
 */
export function survivorsProfiled<T>(file: string | undefined, work: () => Promise<T>): Promise<T> {
  return inspected(file, work, async (session) => {
    await session.post('HeapProfiler.enable');
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: 16_384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: false,
    });
  }, async (session) => (await session.post('HeapProfiler.stopSampling')).profile);
}

export interface StatementStat {
  calls: number;
  ms: number;
  mean_ms: string;
  pct: number;
  query: string;
}

/**
 * Resets pg_stat_statements and returns what reads the statements that took
 * the database's time since (the 15 costliest); undefined when the extension
 * is not preloaded.
 */
export async function statementStats(client: pg.Client): Promise<(() => Promise<StatementStat[]>) | undefined> {
  const available = await client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements').then(() => true, () => false);
  if (!available || !(await client.query('SELECT pg_stat_statements_reset()').then(() => true, () => false))) return undefined;
  return async () => {
    const { rows } = await client.query(`
      SELECT calls::int, round(total_exec_time)::int AS ms, round(mean_exec_time::numeric, 3) AS mean_ms,
        round(100 * total_exec_time / sum(total_exec_time) OVER ())::int AS pct, regexp_replace(left(query, 110), '\\s+', ' ', 'g') AS query
      FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
      ORDER BY total_exec_time DESC LIMIT 15`);
    return rows as StatementStat[];
  };
}
