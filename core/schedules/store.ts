// SQL of the schedules table, in tenant transactions.
import { sql } from 'kysely';
import type { TenantTransaction } from '../db/tenant.ts';
import type { Schedule } from './types.ts';

type Settings = Pick<Schedule, 'cron' | 'timezone' | 'missed_policy' | 'paused' | 'next_run_at' | 'data'>;
type State = Partial<Pick<Schedule, 'paused' | 'next_run_at' | 'last_run_at' | 'last_outcome' | 'last_run_id'>>;

const now = sql<Date>`now()`;

export const schedulesStore = {
  upsert: async (trx: TenantTransaction, tenantId: string, kind: string, subject: string, settings: Settings): Promise<Schedule> => {
    const values = { ...settings, data: JSON.stringify(settings.data) };
    return trx.insertInto('schedules').values({ tenant_id: tenantId, kind, subject, ...values })
      .onConflict((c) => c.columns(['tenant_id', 'kind', 'subject']).doUpdateSet({ ...values, updated_at: now }))
      .returningAll().executeTakeFirstOrThrow() as Promise<Schedule>;
  },

  find: async (trx: TenantTransaction, kind: string, subject: string, lock = false): Promise<Schedule | undefined> => {
    const query = trx.selectFrom('schedules').selectAll().where('kind', '=', kind).where('subject', '=', subject);
    return (lock ? query.forUpdate() : query).executeTakeFirst() as Promise<Schedule | undefined>;
  },

  list: (trx: TenantTransaction, kind: string): Promise<Schedule[]> =>
    trx.selectFrom('schedules').selectAll().where('kind', '=', kind).orderBy('subject').execute() as Promise<Schedule[]>,

  set: (trx: TenantTransaction, kind: string, subject: string, state: State): Promise<Schedule | undefined> =>
    trx.updateTable('schedules').set({ ...state, updated_at: now }).where('kind', '=', kind).where('subject', '=', subject)
      .returningAll().executeTakeFirst() as Promise<Schedule | undefined>,

  delete: async (trx: TenantTransaction, kind: string, subject: string): Promise<boolean> =>
    (await trx.deleteFrom('schedules').where('kind', '=', kind).where('subject', '=', subject).executeTakeFirst()).numDeletedRows > 0n,
};
