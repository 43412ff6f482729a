// withTenant: the only way plugin code touches tenant-owned rows. It opens a
// transaction, drops to the platform_tenant role (so row-level security holds
// even for a superuser connection) and sets app.tenant_id transaction-locally
// (session settings would leak between connections on PGlite). While tracing
// is on, each transaction is a span `db.transaction` (its statements' spans
// are its children: telemetry/statements.ts). Work that must follow the
// commit (waking a consumer of what the transaction wrote) is registered with
// afterCommit and runs once the transaction has committed, never after a rollback.
import { Kysely, PostgresDialect, sql, type Transaction } from 'kysely';
import type pg from 'pg';
import type { Database } from './types.ts';
import { badRequest } from '../errors.ts';
import { withOpeningStatements, type OpeningStatements } from './database.ts';
import { holdingTransaction } from './connection-guard.ts';
import { bindConnection, unbindConnection } from './compiled.ts';
import type { DirectTransaction } from './direct-transaction.ts';
import { inSpan, tracing } from '../telemetry/tracing.ts';

// A tenant id: up to 64 lowercase letters, digits and hyphens, which includes
// a UUID in its lowercase form.
const ALIAS = /^[a-z0-9-]{1,64}$/;

export function isValidTenantAlias(value: unknown): value is string {
  return typeof value === 'string' && ALIAS.test(value);
}

export type TenantTransaction = Transaction<Database>;
export type WithTenant = <T>(tenantId: string, work: (trx: TenantTransaction) => Promise<T>) => Promise<T>;

/** A tenant transaction and the pg connection it runs on (for what kysely cannot send: COPY streams). */
export interface TenantSession {
  trx: TenantTransaction;
  /** The transaction's own connection: statements sent on it are part of the transaction. */
  client: pg.PoolClient;
}
export type WithTenantSession = <T>(tenantId: string, work: (session: TenantSession) => Promise<T>) => Promise<T>;

function openingSql(tenantId: string): string {
  if (!isValidTenantAlias(tenantId)) throw badRequest(`Invalid tenant id: ${JSON.stringify(tenantId)}`, 'TENANT_INVALID');
  return `SET LOCAL ROLE platform_tenant; SET LOCAL app.tenant_id = '${tenantId}'`;
}

/**
 * Runs a transaction so that its work's own error, not a ROLLBACK failing
 * after it, reaches the caller: the embedded database closes the connection
 * of a statement it stopped (57014), and kysely would throw the rollback's
 * error instead.
 */
async function workErrorWins<T>(transaction: (guard: <R>(work: () => Promise<R>) => Promise<R>) => Promise<T>): Promise<T> {
  let failure: { error: unknown } | undefined;
  const guard = async <R>(work: () => Promise<R>): Promise<R> => {
    try {
      return await work();
    } catch (error) {
      failure = { error };
      throw error;
    }
  };
  try {
    return await transaction(guard);
  } catch (err) {
    throw failure ? failure.error : err;
  }
}

/** The callbacks registered on each open transaction of withTenant (and withTenantSession). */
const commitCallbacks = new WeakMap<object, (() => void)[]>();

/**
 * Runs `callback` once `trx` has committed (not at all if it rolls back).
 * False when `trx` is not a transaction withTenant opened (a savepoint, or one
 * a caller began itself): then nothing is registered and the caller must do
 * its work another way. A callback must not throw; it runs after the caller's
 * work has returned, before withTenant resolves.
 */
export function afterCommit(trx: TenantTransaction, callback: () => void): boolean {
  const callbacks = commitCallbacks.get(trx);
  if (!callbacks) return false;
  callbacks.push(callback);
  return true;
}

/** Runs a transaction's work with afterCommit available; calls the callbacks once it has committed. */
async function withCommitCallbacks<T>(run: (track: (trx: TenantTransaction) => void) => Promise<T>): Promise<T> {
  let callbacks: (() => void)[] | undefined;
  const result = await run((trx) => {
    callbacks = [];
    commitCallbacks.set(trx, callbacks);
  });
  for (const callback of callbacks ?? []) callback();
  return result;
}

/** One tenant transaction through kysely's builder (while tracing: its statement spans come from kysely). */
function tenantTransaction<T>(db: Kysely<Database>, tenantId: string, work: (trx: TenantTransaction) => Promise<T>): Promise<T> {
  // The alias is validated strictly, so it can be written into the statement:
  // one round trip begins the transaction and sets both the role and the tenant
  // (openDatabase's driver sends them with the BEGIN). With a kysely instance
  // that did not send them, they go out here, before any work.
  const opening: OpeningStatements = { sql: openingSql(tenantId), sent: false };
  return withCommitCallbacks((track) => withOpeningStatements(opening, () => workErrorWins((guard) => db.transaction().execute((trx) => guard(async () => {
    track(trx);
    if (!opening.sent) await sql.raw(opening.sql).execute(trx);
    return holdingTransaction(`a transaction of tenant ${tenantId}`, () => work(trx));
  })))));
}

/**
 * One tenant transaction on a connection of its own, without kysely's builder
 * (direct-transaction.ts, whose failures already give the work's own error):
 * its compiled statements go to that connection directly.
 */
function directTenantTransaction<T>(direct: DirectTransaction, tenantId: string, work: (trx: TenantTransaction) => Promise<T>): Promise<T> {
  return withCommitCallbacks((track) => direct(openingSql(tenantId), async (trx, connection) => {
    track(trx);
    bindConnection(trx, connection);
    try {
      return await holdingTransaction(`a transaction of tenant ${tenantId}`, () => work(trx));
    } finally {
      unbindConnection(trx);
    }
  }));
}

/** withTenant over `db`; with `direct` (the database handle's, tracing off) its transactions skip kysely's builder. */
export function createWithTenant(db: Kysely<Database>, direct?: DirectTransaction): WithTenant {
  return async (tenantId, work) => {
    if (tracing()) return inSpan('db.transaction', { attributes: { 'tenant.id': tenantId } }, () => tenantTransaction(db, tenantId, work));
    return direct ? directTenantTransaction(direct, tenantId, work) : tenantTransaction(db, tenantId, work);
  };
}

/**
 * withTenant for work that needs the connection itself (COPY FROM STDIN into
 * a tenant's lake table): a kysely transaction over one pooled connection,
 * handed over with it. The same role and tenant setting as withTenant, so
 * row-level security holds for statements sent either way. A connection
 * whose work failed is discarded, not returned to the pool (an interrupted
 * COPY leaves it in an unknown state).
 */
export function createWithTenantSession(pool: pg.Pool): WithTenantSession {
  return async (tenantId, work) => {
    const opening = openingSql(tenantId);
    return tracing() ? inSpan('db.transaction', { attributes: { 'tenant.id': tenantId } }, () => session(opening, tenantId, work)) : session(opening, tenantId, work);
  };

  async function session<T>(opening: string, tenantId: string, work: (session: TenantSession) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    // COPY streams and cursors are refused in pipeline mode (openDatabase): out of it while checked out.
    const pipelined = client.pipeline;
    setPipeline(client, false);
    let failed = false;
    try {
      // kysely's dialect borrows this one connection and never ends it.
      const single = { connect: async () => ({ query: client.query.bind(client), release: () => {} }), end: async () => {} };
      const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: single as never }) });
      return await withCommitCallbacks((track) => workErrorWins((guard) => db.transaction().execute((trx) => guard(async () => {
        track(trx);
        await sql.raw(opening).execute(trx);
        return holdingTransaction(`a transaction of tenant ${tenantId}`, () => work({ trx, client }));
      }))));
    } catch (err) {
      failed = true;
      throw err;
    } finally {
      // The transaction is over, nothing is in flight: the mode may change.
      setPipeline(client, pipelined);
      client.release(failed);
    }
  }
}

function setPipeline(client: pg.PoolClient, on: boolean): void {
  (client as { pipeline: boolean }).pipeline = on;
}
