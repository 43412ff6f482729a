// One pg pool and one kysely instance per platform process.
import pg from 'pg';
import { Kysely, PostgresDialect } from 'kysely';
import type { Database } from './types.ts';

// bigint (int8) columns come back as strings by default; ids here fit in a JS number.
pg.types.setTypeParser(20, (value) => Number(value));

export interface DatabaseHandle {
  pool: pg.Pool;
  db: Kysely<Database>;
  close(): Promise<void>;
}

export function openDatabase(connectionString: string, max = 10): DatabaseHandle {
  const pool = new pg.Pool({ connectionString, max, idleTimeoutMillis: 10_000 });
  // An idle client losing its server connection must not crash the process.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    pool,
    db,
    async close() {
      await db.destroy();
    },
  };
}
