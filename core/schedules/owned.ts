// The service behind a plugin's schedule routes when each of its subjects (a
// source, a transform) has at most one schedule of one kind: get, the tenant's
// list (by the subjects' names), put, remove, pause and resume, each in its
// own tenant transaction, checking the subject first (its own 404) and
// answering SCHEDULE_NOT_FOUND when it has no schedule. The plugin shapes the
// response (`view`).
import { notFound } from '../errors.ts';
import type { MissedRunPolicy } from '../cron.ts';
import type { TenantTransaction, WithTenant } from '../db/tenant.ts';
import type { Schedule, SchedulesApi } from './types.ts';

export interface OwnedScheduleInput {
  cron: string;
  timezone?: string;
  missed_run_policy?: MissedRunPolicy;
  paused?: boolean;
}

export interface OwnedSchedulesOptions<V> {
  core: { withTenant: WithTenant; schedules: SchedulesApi };
  kind: string;
  /** What is scheduled, e.g. "source": in "The source has no schedule". */
  noun: string;
  /** Throws the subject's own 404 when it does not exist (locks it when asked). */
  findSubject(trx: TenantTransaction, id: string, lock: boolean): Promise<unknown>;
  /** The names of the subjects, by id (the list is ordered by them). */
  names(trx: TenantTransaction, ids: string[]): Promise<Map<string, string>>;
  /** Shapes a schedule for the response; `name` is given in the list, and in every answer with namedViews. */
  view(schedule: Schedule, name?: string): V;
  namedViews?: boolean;
}

export function createOwnedSchedules<V>(options: OwnedSchedulesOptions<V>) {
  const { core, kind } = options;

  const shape = async (trx: TenantTransaction, row: Schedule): Promise<V> =>
    options.view(row, options.namedViews ? (await options.names(trx, [row.subject])).get(row.subject) : undefined);

  async function find(trx: TenantTransaction, id: string, lock = false): Promise<Schedule> {
    await options.findSubject(trx, id, lock);
    const row = await core.schedules.get(trx, kind, id, { lock });
    if (!row) throw notFound(`The ${options.noun} has no schedule`, 'SCHEDULE_NOT_FOUND');
    return row;
  }

  return {
    find,

    get: (tenantId: string, id: string) => core.withTenant(tenantId, async (trx) => shape(trx, await find(trx, id))),

    list: (tenantId: string, page: { limit: number; offset: number }) => core.withTenant(tenantId, async (trx) => {
      const rows = await core.schedules.list(trx, kind);
      const names = await options.names(trx, rows.map((row) => row.subject));
      const named = rows.filter((row) => names.has(row.subject)).map((row) => ({ row, name: names.get(row.subject)! }))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      return { items: named.slice(page.offset, page.offset + page.limit).map(({ row, name }) => options.view(row, name)), ...page };
    }),

    /** Creates or replaces the schedule, and arms its next occurrence unless paused. */
    put: (tenantId: string, id: string, input: OwnedScheduleInput) => core.withTenant(tenantId, async (trx) => {
      await options.findSubject(trx, id, true);
      return shape(trx, await core.schedules.put(trx, tenantId, {
        kind, subject: id, cron: input.cron, timezone: input.timezone, missedPolicy: input.missed_run_policy, paused: input.paused,
      }));
    }),

    remove: (tenantId: string, id: string) => core.withTenant(tenantId, async (trx) => {
      await find(trx, id, true);
      await core.schedules.remove(trx, tenantId, kind, id);
    }),

    pause: (tenantId: string, id: string) => core.withTenant(tenantId, async (trx) => {
      await find(trx, id, true);
      return shape(trx, (await core.schedules.pause(trx, tenantId, kind, id))!);
    }),

    /** Resumes from now: occurrences that fell while paused are not caught up. */
    resume: (tenantId: string, id: string) => core.withTenant(tenantId, async (trx) => {
      await find(trx, id, true);
      return shape(trx, (await core.schedules.resume(trx, tenantId, kind, id))!);
    }),
  };
}

export type OwnedSchedules<V> = ReturnType<typeof createOwnedSchedules<V>>;
