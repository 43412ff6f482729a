// What /temporal/health, /config, /metrics, /workers and /task-queues
// describe: OUR job system, named as it is. There is no Temporal server: fast
// keyed work runs on graphile-worker, long and scheduled work (pipeline
// steps, syncs) on pg-boss, both in PostgreSQL; their counts come from their
// own tables (core jobs through the SDK).
import { hostname } from 'node:os';
import type { PipelinesContext } from '../services/context.ts';

export const ORCHESTRATOR = 'agent-platform jobs: graphile-worker (fast, keyed) and pg-boss (long, scheduled) on PostgreSQL; no Temporal server';

type Count = { queue: string; state: string; count: number };

export function createDescribeService(context: PipelinesContext) {
  const { jobs } = context.core;
  const worker = () => `${hostname()}:${process.pid}`;

  async function probe(): Promise<{ ok: boolean; counts: Count[]; latencyMs: number; error?: string }> {
    const started = performance.now();
    try {
      const counts = await jobs.counts();
      return { ok: true, counts, latencyMs: Math.round(performance.now() - started) };
    } catch (error) {
      context.core.logger.warn({ err: error }, 'job system probe failed');
      return { ok: false, counts: [], latencyMs: Math.round(performance.now() - started), error: 'the job tables could not be read' };
    }
  }

  function queues(counts: Count[]) {
    const description = jobs.describe();
    const long = new Set(description.long.map((task) => task.name));
    const names = new Set([...description.fast.tasks, ...description.long.map((task) => task.name), ...counts.map((c) => c.queue)]);
    return [...names].sort().map((name) => ({
      name,
      // Every fast task is defined in each process; a queue that is not one is pg-boss's (dead letters included).
      library: description.fast.tasks.includes(name) ? 'graphile-worker' : 'pg-boss',
      worked_here: description.fast.tasks.includes(name) || long.has(name),
      counts: Object.fromEntries(counts.filter((c) => c.queue === name).map((c) => [c.state, c.count])),
    }));
  }

  return {
    health: async () => {
      const { ok } = await probe();
      const started = jobs.describe().started;
      return { status: ok && started ? 'SERVING' : 'NOT_SERVING', orchestrator: ORCHESTRATOR, database: ok, workers_started: started };
    },

    detailed: async () => {
      const result = await probe();
      const description = jobs.describe();
      return {
        status: result.ok && description.started ? 'SERVING' : 'NOT_SERVING',
        orchestrator: ORCHESTRATOR,
        checks: [
          { name: 'database', ok: result.ok, latency_ms: result.latencyMs, ...(result.error ? { error: result.error } : {}) },
          { name: 'graphile-worker', ok: description.started, tasks: description.fast.tasks.length, concurrency: description.fast.concurrency },
          { name: 'pg-boss', ok: description.started, queues: description.long.length },
        ],
      };
    },

    config: () => {
      const description = jobs.describe();
      return {
        orchestrator: ORCHESTRATOR,
        namespace: null,
        graphile_worker: { concurrency: description.fast.concurrency, poll_interval_ms: description.fast.pollIntervalMs, tasks: description.fast.tasks },
        pg_boss: { queues: description.long },
        pipelines: { ...context.options },
      };
    },

    metrics: async () => {
      const { counts } = await probe();
      const totals: Record<string, number> = {};
      for (const c of counts) totals[c.state] = (totals[c.state] ?? 0) + c.count;
      return { orchestrator: ORCHESTRATOR, totals, queues: queues(counts) };
    },

    workers: () => {
      const description = jobs.describe();
      return {
        items: [
          { identity: worker(), library: 'graphile-worker', started: description.started, concurrency: description.fast.concurrency, task_queues: description.fast.tasks },
          { identity: worker(), library: 'pg-boss', started: description.started, concurrency: description.long.reduce((sum, task) => sum + task.concurrency, 0), task_queues: description.long.map((task) => task.name) },
        ],
        note: 'Workers of this process; other processes of the platform run the same task queues.',
      };
    },

    taskQueues: async () => ({ items: queues((await probe()).counts) }),
  };
}
