// A transaction begun on a connection of its own, without kysely's
// transaction builder: nearly every request runs one (withTenant), and the
// builder's layers (a connection provider per statement, an asserting
// executor that makes a new executor for each, the builder's own promises)
// cost it more CPU than its round trips. The work still gets a kysely
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
 * parameters, built from validated values: it cannot fail to parse, which
 * would leave the statements after it outside a transaction) in the same
 * message, sent together with the work's first statement; commits when the
 * work resolves, rolls back when it or the opening fails (the opening's
 * error first, then the work's; never a failed rollback's).
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
      // Not awaited: the work's first statement follows BEGIN on the wire (the
      // pool's pipeline mode). If the opening fails, the transaction is
      // aborted and every statement after it fails; its error is the one thrown.
      const begun = connection.executeQuery(CompiledQuery.raw(`begin; ${opening}`));
      begun.catch(() => {});
      const trx = new Transaction<Database>({ ...parts, executor: parts.executor.withConnectionProvider(provider) } as never);
      let result: T;
      try {
        result = await work(trx, connection);
      } catch (err) {
        await begun;
        throw err;
      } finally {
        provider.open = false;
      }
      await begun;
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
