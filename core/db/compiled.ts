// Statements compiled once per process. Building and compiling a kysely query
// (its node tree, frozen, then visited into SQL) costs more CPU than sending
// it; a statement on a hot request path whose shape never changes is built
// once, with named parameters, and each call sends the same SQL with that
// call's values. Only the values vary: a query whose shape depends on its
// input (optional filters, lists) is built per call as usual. In a tenant
// transaction withTenant began on its own connection (tracing off), the
// statement goes straight to that connection, past kysely's executor layers;
// anywhere else (tracing on: kysely's statement spans include it) it goes
// through kysely.
import {
  DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler,
  type CompiledQuery, type Compilable, type DatabaseConnection, type QueryResult,
} from 'kysely';
import type { Database } from './types.ts';

/** A named parameter's place in a statement being compiled; replaced by the call's value when it runs. */
class Parameter {
  readonly name: string;
  constructor(name: string) {
    this.name = name;
  }
}

/** Compiles without a connection: PostgreSQL's SQL, no driver behind it. */
const compiler = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

/** Open tenant transactions and the connection each holds; a transaction is here only while its work runs. */
const connections = new WeakMap<object, DatabaseConnection>();

/** `transaction` holds `connection` until unbindConnection: its compiled statements are sent there directly. */
export function bindConnection(transaction: object, connection: DatabaseConnection): void {
  connections.set(transaction, connection);
}

/** The work of `transaction` is over: a statement still run on it goes through kysely (which refuses a finished one). */
export function unbindConnection(transaction: object): void {
  connections.delete(transaction);
}

/** What runs a compiled statement: a tenant transaction, or the process's kysely instance. */
export interface StatementRunner {
  executeQuery<R>(query: CompiledQuery<R>): Promise<QueryResult<R>>;
}

/**
 * A statement built once: `build` gets a kysely instance to build it with and
 * `param(name)`, which stands for the value of `name` in each call's
 * parameters. The result runs it and returns its rows.
 */
export function compiledStatement<P extends Record<string, unknown>, R>(
  build: (db: Kysely<Database>, param: <K extends keyof P & string>(name: K) => P[K]) => Compilable<R>,
): (runner: StatementRunner, parameters: P) => Promise<R[]> {
  let compiled: CompiledQuery<R> | undefined;
  return async (runner, parameters) => {
    compiled ??= build(compiler, (name) => new Parameter(name) as never).compile();
    const query: CompiledQuery<R> = { ...compiled, parameters: compiled.parameters.map((value) => (value instanceof Parameter ? parameters[value.name] : value)) };
    const connection = connections.get(runner);
    return connection ? (await connection.executeQuery<R>(query)).rows : (await runner.executeQuery<R>(query)).rows;
  };
}
