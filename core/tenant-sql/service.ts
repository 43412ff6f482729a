// core.tenantSql: the one way tenant-written SQL reaches PostgreSQL (analysis,
// review, previews, dry runs, materializations, identity matching). Around
// the caller's work it
// - sets the statement budget, `SET LOCAL statement_timeout = <ms>` in a
//   simple query of its own: TENANT_SQL_INTERACTIVE_TIMEOUT_SECONDS for
//   anything a request waits on, the caller's own setting for a job;
// - turns SQLSTATE 57014 into 422 SQL_TIMEOUT (the transaction rolls back, so
//   nothing is half-written; a ROLLBACK failing after it does not hide it:
//   the embedded database closes the connection of a statement it stopped);
// - caps the tenant's statements running at once at
//   TENANT_SQL_MAX_CONCURRENT_PER_TENANT across processes (advisory slots,
//   slots.ts): past it a request gets 429 SQL_CONCURRENCY_LIMIT with
//   Retry-After, a job waits with backoff for up to its budget;
// - on the embedded database (one session serializing every statement of the
//   process) also lets one request's statement run at a time: another request
//   gets the 429 at once, so that no database-backed request waits behind
//   tenant SQL longer than one interactive budget.
import { sql } from 'kysely';
import type { TenantSession, TenantTransaction, WithTenantSession } from '../db/tenant.ts';
import { concurrencyLimit, isQueryCanceled, sqlTimeout } from './errors.ts';
import { backoff, CountingGate } from './gate.ts';
import { trySlot } from './slots.ts';

export type TenantSqlMode = 'interactive' | 'job';

export interface TenantSqlOptions {
  /** `interactive`: a request waits on it; `job`: a background job runs it. */
  mode: TenantSqlMode;
  /**
   * The statement budget in ms. A job's is its own setting (required); a
   * request's is at most TENANT_SQL_INTERACTIVE_TIMEOUT_SECONDS, smaller if given.
   */
  timeoutMs?: number;
  /** The setting a job's budget comes from, named in the timeout's message. */
  setting?: string;
  /** Makes the transaction read-only (SET TRANSACTION READ ONLY) before anything runs. */
  readOnly?: boolean;
}

/** Sets the budget in a tenant transaction and takes the tenant's slot there: call once, before the tenant statement. */
export type EnterTenantSql = (trx: TenantTransaction) => Promise<void>;

export interface TenantSqlService {
  /** `work` in a tenant session (withTenantSession) holding the budget and a slot. */
  run<T>(tenantId: string, options: TenantSqlOptions, work: (session: TenantSession) => Promise<T>): Promise<T>;
  /**
   * For a tenant transaction another service opens (a lakehouse write of a
   * query): `work` runs admitted (the embedded database's in-process places)
   * with its errors mapped as `run`'s, and calls `enter(trx)` in that
   * transaction before the tenant statement.
   */
  admit<T>(tenantId: string, options: TenantSqlOptions, work: (enter: EnterTenantSql) => Promise<T>): Promise<T>;
  /** The budget in ms these options give. */
  budgetMs(options: TenantSqlOptions): number;
}

export interface TenantSqlSettings {
  interactiveTimeoutSeconds: number;
  maxConcurrentPerTenant: number;
  embedded: boolean;
}

const INTERACTIVE_SETTING = 'TENANT_SQL_INTERACTIVE_TIMEOUT_SECONDS';

export function createTenantSql(withTenantSession: WithTenantSession, settings: TenantSqlSettings): TenantSqlService {
  const { maxConcurrentPerTenant: slots, embedded } = settings;
  const interactiveMs = settings.interactiveTimeoutSeconds * 1000;
  const perTenant = new CountingGate(slots);
  const requests = new CountingGate(1);
  const retryAfterSeconds = settings.interactiveTimeoutSeconds;

  function budgetMs(options: TenantSqlOptions): number {
    // Never 0: statement_timeout = 0 would turn the budget off.
    if (options.mode === 'interactive') return Math.max(1, Math.trunc(Math.min(interactiveMs, options.timeoutMs ?? interactiveMs)));
    if (!options.timeoutMs || !(options.timeoutMs >= 1)) throw new Error('tenant SQL of a job needs its timeoutMs (at least 1 ms)');
    return Math.trunc(options.timeoutMs);
  }

  /** The setting that bounded the budget, for the timeout's message. */
  function settingOf(options: TenantSqlOptions, budget: number): string {
    if (options.mode === 'interactive' && (budget === interactiveMs || !options.setting)) return INTERACTIVE_SETTING;
    return options.setting ?? 'the job\'s statement timeout';
  }

  /** Embedded only: the process's places, freed by the returned function. */
  async function admitInProcess(tenantId: string, options: TenantSqlOptions, deadline: number): Promise<() => void> {
    if (!embedded) return () => {};
    if (options.mode === 'interactive') {
      const request = requests.tryTake('');
      if (!request) throw concurrencyLimit('embedded', retryAfterSeconds);
      const tenant = perTenant.tryTake(tenantId);
      if (!tenant) {
        request();
        throw concurrencyLimit({ tenant: slots }, retryAfterSeconds);
      }
      return () => {
        tenant();
        request();
      };
    }
    for (let attempt = 0; ; attempt++) {
      const tenant = perTenant.tryTake(tenantId);
      if (tenant) return tenant;
      if (!(await backoff(attempt, deadline))) throw concurrencyLimit({ tenant: slots }, retryAfterSeconds);
    }
  }

  function enterFor(tenantId: string, options: TenantSqlOptions, budget: number, deadline: number): EnterTenantSql {
    return async (trx) => {
      if (options.readOnly) await sql.raw('SET TRANSACTION READ ONLY').execute(trx);
      // Its own simple query, in exactly this form: the embedded database's watchdog reads the budget from it.
      await sql.raw(`SET LOCAL statement_timeout = ${budget}`).execute(trx);
      if (embedded) return;
      for (let attempt = 0; ; attempt++) {
        if ((await trySlot(trx, tenantId, slots)) >= 0) return;
        if (options.mode === 'interactive' || !(await backoff(attempt, deadline))) throw concurrencyLimit({ tenant: slots }, retryAfterSeconds);
      }
    };
  }

  async function admit<T>(tenantId: string, options: TenantSqlOptions, work: (enter: EnterTenantSql) => Promise<T>): Promise<T> {
    const budget = budgetMs(options);
    const deadline = Date.now() + budget;
    const free = await admitInProcess(tenantId, options, deadline);
    try {
      return await work(enterFor(tenantId, options, budget, deadline));
    } catch (err) {
      if (isQueryCanceled(err)) {
        throw sqlTimeout(budget, settingOf(options, budget));
      }
      throw err;
    } finally {
      free();
    }
  }

  return {
    budgetMs,
    admit,
    run: (tenantId, options, work) => admit(tenantId, options, (enter) => withTenantSession(tenantId, async (session) => {
      await enter(session.trx);
      return work(session);
    })),
  };
}
