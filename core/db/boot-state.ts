// Boot-time DDL (the tenant role's grants) runs only when what it would apply
// changed: its fingerprint is a hash of the statements' text and of every
// object of the schemas they touch (schemas, relations, columns with
// privileges, functions: their identity, kind, SECURITY DEFINER flag and
// privileges), compared with the one stored after the last run
// (platform_boot_state). A migration that adds an object, and a privilege
// changed by hand, change the fingerprint: the next boot applies the
// statements again, which repairs the drift. The statements must leave the
// catalog the same when run twice, so the fingerprint taken after a run is
// the one the next boot computes.
import { createHash } from 'node:crypto';
import type pg from 'pg';

const sortedAcl = (column: string) => `coalesce((SELECT string_agg(i::text, ',' ORDER BY i::text) FROM unnest(${column}) i), '-')`;

/** One hash of the objects of the schemas ($1) that GRANT … ON ALL … IN SCHEMA and the statements here reach. */
const CATALOG = `SELECT encode(sha256(convert_to(coalesce(string_agg(item, E'\\n' ORDER BY item), ''), 'UTF8')), 'hex') FROM (
    SELECT 'n ' || n.oid || ' ' || n.nspname || ' ' || ${sortedAcl('n.nspacl')} AS item
    FROM pg_namespace n WHERE n.nspname = ANY($1)
    UNION ALL
    SELECT 'c ' || c.oid || ' ' || c.relkind::text || ' ' || c.relispartition || ' ' || ${sortedAcl('c.relacl')}
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = ANY($1) AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')
    UNION ALL
    SELECT 'a ' || a.attrelid || ' ' || a.attnum || ' ' || ${sortedAcl('a.attacl')}
    FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = ANY($1) AND a.attacl IS NOT NULL
    UNION ALL
    SELECT 'f ' || p.oid || ' ' || p.prokind::text || ' ' || p.prosecdef || ' ' || ${sortedAcl('p.proacl')}
    FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = ANY($1)
  ) items`;

const CHECK = `SELECT (${CATALOG}) AS catalog, (SELECT fingerprint FROM platform_boot_state WHERE name = $2) AS stored`;

interface Check {
  catalog: string;
  stored: string | null;
}

/** What a boot applies under one name: its statements, and the schemas whose objects they reach. */
export interface BootDdl {
  name: string;
  schemas: string[];
  statements: string[];
}

const fingerprintOf = (ddl: BootDdl, catalog: string) =>
  createHash('sha256').update(`${ddl.statements.join(';\n')}\n${ddl.schemas.join(',')}\n${catalog}`).digest('hex');

/**
 * Runs the statements unless the stored fingerprint is current; returns
 * whether it ran them. Under the ledger's table lock (PGlite honours no
 * advisory lock): concurrent GRANTs on one table fail with "tuple
 * concurrently updated", and a process that waited finds the work done.
 */
export async function applyWhenChanged(pool: pg.Pool, ddl: BootDdl): Promise<boolean> {
  const check = (await pool.query<Check>(CHECK, [ddl.schemas, ddl.name])).rows[0]!;
  if (fingerprintOf(ddl, check.catalog) === check.stored) return false;
  return underLedgerLock(pool, async (client) => {
    const before = (await client.query<Check>(CHECK, [ddl.schemas, ddl.name])).rows[0]!;
    if (fingerprintOf(ddl, before.catalog) === before.stored) return false;
    await client.query(ddl.statements.join(';\n'));
    const after = (await client.query<Check>(CHECK, [ddl.schemas, ddl.name])).rows[0]!;
    await client.query(
      `INSERT INTO platform_boot_state (name, fingerprint) VALUES ($1, $2)
       ON CONFLICT (name) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, applied_at = now()`,
      [ddl.name, fingerprintOf(ddl, after.catalog)],
    );
    return true;
  });
}

async function underLedgerLock<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('LOCK TABLE platform_migrations IN EXCLUSIVE MODE');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}
