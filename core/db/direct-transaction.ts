// A transaction begun on a connection of its own, without kysely's
// transaction builder: nearly every request runs one (withTenant), and the
// builder's layers (a connection provider per statement, an asserting
// executor that makes a new executor for each, the builder's own promises)
// cost it more CPU than its three round trips. The work still gets a kysely
// Transaction, whose statements go to that connection; once the work is over
// the transaction refuses any further statement, as kysely's does.
import {
  CompiledQuery, Transaction,
  type ConnectionProvider, type DatabaseConnection, type Dialect, type KyselyConfig, type PostgresDriver, type QueryExecutor,
} from 'kysely';
import type { Database } from './types.ts';

/** The connection of one transaction, handed to its statements while the transaction is open. */
class TransactionConnection implements ConnectionProvider {
  private readonly connection: DatabaseConnection;
  open = true;

  constructor(connection: DatabaseConnection) {
    this.connection = connection;
  }

  async provideConnection<T>(consumer: (connection: DatabaseConnection) => Promise<T>): Promise<T> {
    if (!this.open) throw new Error('Transaction is already committed or rolled back');
    return consumer(this.connection);
  }
}

export interface DirectTransactionParts {
  config: KyselyConfig;
  dialect: Dialect;
  driver: PostgresDriver;
  /** The kysely instance's executor (its compiler, adapter and plugins). */
  executor: QueryExecutor;
}

export type DirectTransaction = <T>(opening: string, work: (trx: Transaction<Database>, connection: DatabaseConnection) => Promise<T>) => Promise<T>;

/**
 * Runs `work` in a transaction whose BEGIN carries `opening` (literal SQL, no
 * parameters) in the same round trip; commits when it resolves, rolls back
 * when it throws (its error, not a failed rollback's, reaches the caller).
 */
export function createDirectTransaction(parts: DirectTransactionParts): DirectTransaction {
  let ready: Promise<void> | undefined;
  const { driver } = parts;
  return async <T>(opening: string, work: (trx: Transaction<Database>, connection: DatabaseConnection) => Promise<T>): Promise<T> => {
    // kysely initializes its driver on first use; this path may come first.
    await (ready ??= driver.init());
    const connection = await driver.acquireConnection();
    const provider = new TransactionConnection(connection);
    // From the BEGIN on (one that failed half way may have left the transaction open and aborted) until the commit.
    let unfinished = true;
    try {
      await connection.executeQuery(CompiledQuery.raw(`begin; ${opening}`));
      const trx = new Transaction<Database>({ ...parts, executor: parts.executor.withConnectionProvider(provider) } as never);
      let result: T;
      try {
        result = await work(trx, connection);
      } finally {
        provider.open = false;
      }
      await driver.commitTransaction(connection);
      unfinished = false;
      return result;
    } catch (err) {
      if (unfinished) await driver.rollbackTransaction(connection as never).catch(() => {});
      throw err;
    } finally {
      await driver.releaseConnection(connection as never);
    }
  };
}
