// CLI commands of the events plugin. The CLI acts as the operator on the
// database; the running server's workers dispatch what it emits and run the
// backfills it requests (starting workflows needs the workflows plugin, which
// lives in the server).
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { CoreServices } from 'agent-platform/sdk';
import { defineCli, UsageError } from 'agent-platform/sdk/cli';
import type { EventsOptions } from './options.ts';

const tenant = { type: 'string', description: 'tenant alias', required: true } as const;

function jsonObject(value: string | undefined, flag: string): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new UsageError(`--${flag} must be JSON, e.g. '{"order_id": 42}'`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new UsageError(`--${flag} must be a JSON object`);
  return parsed as Record<string, unknown>;
}

function positiveInt(value: string | undefined, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new UsageError(`--${flag} must be a non-negative integer`);
  return parsed;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The plugin's services, imported when a command runs (the declarations load nothing else). */
const services = async (core: CoreServices, options: EventsOptions) => (await import('./services.ts')).createServices(core, options);

export const cli = defineCli(services, (command) => [
  command({
    name: 'triggers list',
    description: 'List a tenant\'s triggers',
    options: {
      tenant,
      'active-only': { type: 'boolean', description: 'only active triggers' },
      'event-type': { type: 'string', description: 'triggers this event type would match' },
    },
    run: ({ triggers }, { options }) =>
      triggers.list(options.tenant, { activeOnly: Boolean(options['active-only']), eventType: options['event-type'] }, 0, 500),
  }),
  command({
    name: 'triggers create',
    description: 'Create a trigger from a JSON definition (--definition) or a JSON/YAML file (--file)',
    options: {
      tenant,
      definition: { type: 'string', description: 'the trigger as JSON (the REST body)' },
      file: { type: 'string', description: 'a JSON or YAML file holding the trigger' },
    },
    run: async ({ triggers }, { options }) => {
      let definition: unknown = jsonObject(options.definition, 'definition');
      if (options.file !== undefined) definition = (await import('yaml')).default.parse(await readFile(options.file, 'utf8'));
      if (definition === undefined) throw new UsageError('triggers create: give --definition or --file');
      // The CLI acts as the operator: the trigger's workflows act for the super-admin.
      return triggers.create(options.tenant, definition, { kind: 'super_admin' });
    },
  }),
  command({
    name: 'triggers test',
    description: 'Dry-run an event against a trigger: match, per-key filter result, mapped inputs (starts nothing)',
    positionals: ['name'],
    options: {
      tenant,
      type: { type: 'string', description: 'event type', required: true },
      data: { type: 'string', description: 'event data as a JSON object' },
      source: { type: 'string', description: 'event source' },
    },
    run: ({ triggers }, { positionals, options }) =>
      triggers.test(options.tenant, positionals[0], { type: options.type, data: jsonObject(options.data, 'data') ?? {}, source: options.source }),
  }),
  command({
    name: 'triggers backfill',
    description: 'Replay dispatched events through a reactive trigger (run by the server; waits for its result)',
    positionals: ['name'],
    options: {
      tenant,
      since: { type: 'string', description: 'ISO 8601 start (default: the start of the stream)' },
      limit: { type: 'string', description: 'events to scan, at most 500 (default 100)' },
      'timeout-s': { type: 'string', description: 'how long to wait for the server (default 60)' },
    },
    run: async (_services, { positionals, options, progress }, core) => {
      const [{ BACKFILL_TASK, tenantQueue }, schemas, { backfillsStore }, { shaped }] = await Promise.all([
        import('./dispatch/jobs.ts'), import('./schemas.ts'), import('./store/triggers.ts'), import('./triggers/validation.ts'),
      ]);
      const tenantId = options.tenant;
      const request = shaped<{ since?: Date; limit: number }>(schemas.backfillRequest, {
        ...(options.since !== undefined ? { since: options.since } : {}),
        limit: positiveInt(options.limit, 'limit', 100),
      });
      const id = randomUUID();
      await core.withTenant(tenantId, async (trx) => {
        await backfillsStore.insert(trx, {
          id, tenant_id: tenantId, trigger_name: positionals[0], request: { since: request.since?.toISOString(), limit: request.limit },
        });
        await core.jobs.enqueue(BACKFILL_TASK, { tenant_id: tenantId, request_id: id }, { trx, queue: tenantQueue(tenantId) });
      });
      const started = Date.now();
      const until = started + positiveInt(options['timeout-s'], 'timeout-s', 60) * 1000;
      while (Date.now() < until) {
        const row = await core.withTenant(tenantId, (trx) => backfillsStore.get(trx, id));
        if (row?.finished_at) {
          if (row.error) throw new UsageError(`backfill failed: ${row.error}`);
          progress(`backfill ${positionals[0]}: done`);
          return row.result;
        }
        progress(`backfill ${positionals[0]}: waiting for the server (${Math.round((Date.now() - started) / 1000)} s)`);
        await sleep(250);
      }
      throw new UsageError(`no result within the timeout: is the server running? (request ${id} stays queued)`);
    },
  }),
  command({
    name: 'events emit',
    description: 'Emit an event on a tenant\'s stream',
    options: {
      tenant,
      type: { type: 'string', description: 'event type', required: true },
      source: { type: 'string', description: 'event source (default /cli)' },
      data: { type: 'string', description: 'event data as a JSON object' },
    },
    run: async ({ stream, context }, { options }) => {
      const emitted = await stream.emit(options.tenant, { type: options.type, source: options.source ?? '/cli', data: jsonObject(options.data, 'data') ?? {} });
      // The server's workers dispatch it: wake them before this process exits.
      await context.waker.idle(options.tenant);
      return emitted;
    },
  }),
  command({
    name: 'events tail',
    description: 'Follow a tenant\'s stream: one JSON event per line on stdout, progress on stderr',
    options: {
      tenant,
      type: { type: 'string', description: 'exact type or pattern ending in *' },
      'from-seq': { type: 'string', description: 'start after the event with this number (default: the current end)' },
      count: { type: 'string', description: 'stop after this many events (default: never)' },
      'interval-ms': { type: 'string', description: 'poll interval (default 1000)' },
    },
    run: async ({ stream }, { options, progress }) => {
      const tenantId = options.tenant;
      const type = options.type;
      const count = positiveInt(options.count, 'count', 0);
      const interval = Math.max(50, positiveInt(options['interval-ms'], 'interval-ms', 1000));
      // A position in stream order (see the events README): numbers are not in that order.
      let after: string | number = options['from-seq'] !== undefined ? positiveInt(options['from-seq'], 'from-seq', 0) : await stream.end(tenantId);
      let lastSeq = typeof after === 'number' ? after : null;
      let seen = 0;
      const started = Date.now();
      let stopped = false;
      let reported = false;
      const stop = () => {
        stopped = true;
      };
      process.once('SIGINT', stop);
      try {
        while (!stopped && (count === 0 || seen < count)) {
          const batch = await stream.after(tenantId, after, count === 0 ? 500 : Math.min(500, count - seen), type);
          for (const event of batch) process.stdout.write(`${JSON.stringify(event)}\n`);
          seen += batch.length;
          if (batch.length > 0) {
            after = batch.at(-1)!.position;
            lastSeq = batch.at(-1)!.seq;
          }
          // A state per batch that brought events (and the first): an idle poll has nothing new to say.
          if (batch.length > 0 || !reported) {
            const rate = seen / Math.max(0.001, (Date.now() - started) / 1000);
            progress(`[tail ${tenantId}] after seq ${lastSeq ?? '(the end)'} · ${seen} event(s) · ${rate.toFixed(1)}/s`);
            reported = true;
          }
          if (batch.length === 0) await sleep(interval);
        }
      } finally {
        process.removeListener('SIGINT', stop);
      }
      return { events: seen, last_seq: lastSeq, last_position: typeof after === 'string' ? after : null };
    },
  }),
]);
