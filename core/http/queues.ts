// The background job queues for the platform's operator: each queue's jobs by
// state and the dead letters (jobs in a `<task>.dead` queue: a long task's
// jobs that failed every attempt). Queues are shared by every tenant, so
// their counts are the super-admin's only.
import Joi from 'joi';
import type { Server } from '@hapi/hapi';
import type { JobCount } from '../jobs/index.ts';

const STATES = ['queued', 'active', 'deferred', 'failed'] as const;

const queue = Joi.object({
  queue: Joi.string().description('the task name (a long task\'s dead letters: `<task>.dead`)'),
  queued: Joi.number().integer(),
  active: Joi.number().integer(),
  deferred: Joi.number().integer(),
  failed: Joi.number().integer().description('jobs that used every attempt'),
  dead_letter: Joi.boolean().description('whether the queue holds another task\'s dead letters'),
}).label('JobQueue');

const queueList = Joi.object({
  items: Joi.array().items(queue),
  totals: Joi.object({
    queued: Joi.number().integer(), active: Joi.number().integer(), deferred: Joi.number().integer(), failed: Joi.number().integer(),
    dead_letters: Joi.number().integer().description('jobs waiting in dead-letter queues (queued, active or failed there)'),
  }).label('JobQueueTotals'),
}).label('JobQueueList');

export interface QueueView {
  queue: string; queued: number; active: number; deferred: number; failed: number; dead_letter: boolean;
}

/** The counts by queue (sorted by name), and their totals. */
export function queueSummary(counts: JobCount[]) {
  const byQueue = new Map<string, QueueView>();
  for (const { queue: name, state, count } of counts) {
    const view = byQueue.get(name) ?? { queue: name, queued: 0, active: 0, deferred: 0, failed: 0, dead_letter: name.endsWith('.dead') };
    if ((STATES as readonly string[]).includes(state)) view[state as (typeof STATES)[number]] += count;
    byQueue.set(name, view);
  }
  const items = [...byQueue.values()].sort((a, b) => a.queue.localeCompare(b.queue));
  const sum = (pick: (q: QueueView) => number, of = items) => of.reduce((n, q) => n + pick(q), 0);
  const dead = items.filter((q) => q.dead_letter);
  return {
    items,
    totals: {
      queued: sum((q) => q.queued), active: sum((q) => q.active), deferred: sum((q) => q.deferred), failed: sum((q) => q.failed),
      dead_letters: sum((q) => q.queued + q.active + q.failed, dead),
    },
  };
}

export function registerQueueRoutes(server: Server, jobCounts: () => Promise<JobCount[]>): void {
  server.route({
    method: 'GET',
    path: '/api/v1/queues',
    options: {
      auth: 'bearer',
      plugins: { platform: { tenant: 'none', superAdmin: true } },
      tags: ['api', 'operations'],
      description: 'Background job queues: jobs by queue and state, and the dead letters (super-admin)',
      notes: 'Queues serve every tenant, so only the super-admin reads them. A long task\'s jobs that failed every attempt move to its `<task>.dead` queue (`dead_letter: true`).',
      response: { schema: queueList },
    },
    handler: async () => queueSummary(await jobCounts()),
  });
}
