// One pg pool and one kysely instance per platform process. Opened while
// tracing is on, its statements are spans (telemetry/statements.ts).
import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import {
  CompiledQuery, Kysely, PostgresDialect, PostgresDriver,
  type DatabaseConnection, type Driver, type PostgresDialectConfig, type TransactionSettings,
} from 'kysely';
import { checkSecondConnection } from './connection-guard.ts';
import { createDirectTransaction, type DirectTransaction } from './direct-transaction.ts';
import type { Database } from './types.ts';
import { tracing } from '../telemetry/tracing.ts';
import { traceStatement } from '../telemetry/statements.ts';

// bigint (int8) columns come back as strings by default; ids here fit in a JS number.
pg.types.setTypeParser(20, (value) => Number(value));

export interface DatabaseHandle {
  pool: pg.Pool;
  db: Kysely<Database>;
  /** Transactions without kysely's builder (withTenant's); absent while statements are traced, whose spans come from kysely. */
  directTransaction?: DirectTransaction;
  close(): Promise<void>;
}

/** Statements to run first thing in the next transaction begun in this async context. */
export interface OpeningStatements {
  sql: string;
  /** Set once they went out with the BEGIN; a caller that finds it unset must run them itself. */
  sent: boolean;
}

const opening = new AsyncLocalStorage<OpeningStatements>();

/**
 * Runs `fn` so that the first `db.transaction()` it begins sends `statements`
 * in the same round trip as its BEGIN (`begin; <statements>`, one simple
 * query). Only that transaction: the flag is spent on first use, so nested
 * transactions begin plainly. `statements` must be literal SQL, no parameters.
 */
export function withOpeningStatements<T>(statements: OpeningStatements, fn: () => Promise<T>): Promise<T> {
  return opening.run(statements, fn);
}

class PlatformDriver extends PostgresDriver {
  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const pending = opening.getStore();
    if (!pending || pending.sent || settings.isolationLevel || settings.accessMode) {
      return super.beginTransaction(connection, settings);
    }
    pending.sent = true;
    try {
      await connection.executeQuery(CompiledQuery.raw(`begin; ${pending.sql}`));
    } catch (err) {
      // kysely rolls back only a transaction whose begin succeeded; this one may
      // be open and aborted, so close it before the connection returns to the pool
      // (a failed rollback marks the connection for discard).
      await super.rollbackTransaction(connection as Parameters<PostgresDriver['rollbackTransaction']>[0]).catch(() => {});
      throw err;
    }
  }
}

class PlatformDialect extends PostgresDialect {
  private readonly driverConfig: PostgresDialectConfig;
  /** The driver kysely created (once, in its constructor). */
  driver: PlatformDriver | undefined;

  constructor(config: PostgresDialectConfig) {
    super(config);
    this.driverConfig = config;
  }

  createDriver(): Driver {
    this.driver = new PlatformDriver(this.driverConfig);
    return this.driver;
  }
}

/** pool.connect (and pool.query, which calls it) checked against a held transaction. */
function guardConnect(pool: pg.Pool): void {
  const connect = pool.connect.bind(pool) as (callback?: (...args: unknown[]) => void) => unknown;
  pool.connect = ((callback?: (...args: unknown[]) => void) => {
    try {
      checkSecondConnection('A pooled connection');
    } catch (err) {
      if (callback) return void process.nextTick(callback, err);
      return Promise.reject(err);
    }
    return connect(callback);
  }) as typeof pool.connect;
}

export function openDatabase(connectionString: string, max = 10): DatabaseHandle {
  // Pipeline mode: a statement sent while another is in flight on the same
  // connection goes out at once instead of after its answer, so withTenant's
  // BEGIN and its first statement share a round trip. The mode refuses COPY
  // streams and cursors: those run through withTenantSession, whose
  // connection leaves the mode while it is checked out.
  const pool = new pg.Pool({ connectionString, max, idleTimeoutMillis: 10_000, pipeline: true });
  guardConnect(pool);
  // An idle client losing its server connection must not crash the process.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const dialect = new PlatformDialect({ pool });
  const config = { dialect, ...(tracing() ? { log: traceStatement } : {}) };
  const db = new Kysely<Database>(config);
  return {
    pool,
    db,
    directTransaction: tracing() ? undefined : createDirectTransaction({ config, dialect, driver: dialect.driver!, executor: db.getExecutor() }),
    async close() {
      // Kysely ends the pool only if a query went through it; a command that
      // used the pool alone (migrate) would otherwise wait out the idle timeout.
      await db.destroy();
      if (!pool.ending) await pool.end();
    },
  };
}
