// Every key of a tenant table includes tenant_id, as a distributed PostgreSQL
// that shards tenant tables by tenant_id requires: the primary key, every
// unique constraint and unique index (partial ones included), every exclusion
// constraint, and both sides of every foreign key between tenant tables. Read
// from the catalog of a database migrated with every plugin of the default
// manifest.
import t from 'tap';
import pg from 'pg';
import { createTestDatabase } from '../harness.ts';

/**
 * Reference tables: tenant tables read before the tenant is known, by design,
 * which a distributed deployment replicates to every node instead of sharding.
 * Their own keys need no tenant_id, a foreign key into one needs none either,
 * and one may reference only another reference table. Each entry says why.
 */
const REFERENCE_TABLES: Record<string, string> = {
  clients: 'client_key is unique across tenants: the public embed routes name only the key and find the tenant from it',
  lake_datasets: 'a dataset id and its physical table are names in the one catalog, unique across tenants, and shared layers are read by every tenant by id',
};

interface TenantTable {
  oid: number;
  name: string;
  tenant_attnum: number;
}

interface UniqueKey {
  table_oid: number;
  name: string;
  kind: string;
  key_attnums: number[];
}

interface ForeignKey {
  name: string;
  child_oid: number;
  child: string;
  parent_oid: number;
  parent: string;
  child_attnums: number[];
  parent_attnums: number[];
}

const SYSTEM_SCHEMAS = `n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'`;
// A table outside public is named with its schema.
const QUALIFIED = `CASE WHEN n.nspname = 'public' THEN c.relname ELSE n.nspname || '.' || c.relname END`;

async function catalog(client: pg.Client) {
  const tables = (await client.query<TenantTable>(`
    SELECT c.oid::int AS oid, ${QUALIFIED} AS name, a.attnum::int AS tenant_attnum
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'tenant_id' AND NOT a.attisdropped
    WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition AND ${SYSTEM_SCHEMAS}
    ORDER BY 2`)).rows;
  // Unique indexes (which back primary keys and unique constraints) by their
  // key columns (an expression is 0; INCLUDE columns are not keys), and
  // exclusion constraints by theirs.
  const keys = (await client.query<UniqueKey>(`
    SELECT ix.indrelid::int AS table_oid, i.relname AS name,
           CASE WHEN ix.indisprimary THEN 'primary key' WHEN con.contype = 'u' THEN 'unique constraint'
                WHEN ix.indpred IS NOT NULL THEN 'partial unique index' ELSE 'unique index' END AS kind,
           (ix.indkey::int2[])[0:ix.indnkeyatts - 1]::int[] AS key_attnums
    FROM pg_index ix JOIN pg_class i ON i.oid = ix.indexrelid
    LEFT JOIN pg_constraint con ON con.conindid = ix.indexrelid AND con.conrelid = ix.indrelid AND con.contype IN ('p', 'u')
    WHERE ix.indisunique
    UNION ALL
    SELECT con.conrelid::int, con.conname, 'exclusion constraint', con.conkey::int[]
    FROM pg_constraint con WHERE con.contype = 'x'`)).rows;
  const foreignKeys = (await client.query<ForeignKey>(`
    SELECT con.conname AS name, con.conrelid::int AS child_oid, con.conrelid::regclass::text AS child,
           con.confrelid::int AS parent_oid, con.confrelid::regclass::text AS parent,
           con.conkey::int[] AS child_attnums, con.confkey::int[] AS parent_attnums
    FROM pg_constraint con WHERE con.contype = 'f'`)).rows;
  return { tables, keys, foreignKeys };
}

/** Every breach of the rule, one line each, naming the table and the constraint or index. */
function breaches({ tables, keys, foreignKeys }: Awaited<ReturnType<typeof catalog>>): string[] {
  const byOid = new Map(tables.map((table) => [table.oid, table]));
  const isReference = (table: TenantTable | undefined) => table !== undefined && table.name in REFERENCE_TABLES;
  const found: string[] = [];
  for (const table of tables) {
    if (isReference(table)) continue;
    const own = keys.filter((key) => key.table_oid === table.oid);
    if (!own.some((key) => key.kind === 'primary key')) found.push(`${table.name}: no primary key`);
    for (const key of own) {
      if (!key.key_attnums.includes(table.tenant_attnum)) found.push(`${table.name}: ${key.kind} ${key.name} lacks tenant_id`);
    }
  }
  for (const fk of foreignKeys) {
    const child = byOid.get(fk.child_oid);
    const parent = byOid.get(fk.parent_oid);
    if (!parent || isReference(parent)) continue;
    if (!child) {
      found.push(`${fk.child}: foreign key ${fk.name} into tenant table ${parent.name} from a table without tenant_id`);
    } else if (isReference(child)) {
      found.push(`${child.name}: foreign key ${fk.name} from a reference table into tenant table ${parent.name}`);
    } else if (!fk.child_attnums.some((attnum, i) => attnum === child.tenant_attnum && fk.parent_attnums[i] === parent.tenant_attnum)) {
      found.push(`${child.name}: foreign key ${fk.name} into ${parent.name} does not match tenant_id to tenant_id`);
    }
  }
  return found;
}

t.test('every key of every tenant table includes tenant_id, but for the reference tables', async (t) => {
  const client = new pg.Client({ connectionString: await createTestDatabase(t, { migrated: true }) });
  client.on('error', () => {}); // the database is dropped WITH (FORCE) at teardown
  await client.connect();
  t.teardown(() => client.end());
  const found = await catalog(client);
  t.ok(found.tables.length >= 90, `the tenant tables of every plugin are read (${found.tables.length})`);

  // Each offender is a line of the diff: its table, then the constraint or index.
  t.strictSame(breaches(found).sort(), [], 'no key of a tenant table lacks tenant_id');

  // The list stays as short as the design needs: each entry is a tenant table
  // that still has a key without tenant_id (else it is sharded like the rest).
  for (const [name, reason] of Object.entries(REFERENCE_TABLES)) {
    const table = found.tables.find((candidate) => candidate.name === name);
    t.ok(table, `reference table ${name} is a tenant table (${reason})`);
    if (!table) continue;
    const global = found.keys.filter((key) => key.table_oid === table.oid && !key.key_attnums.includes(table.tenant_attnum));
    t.ok(global.length > 0, `reference table ${name} has a key across tenants (${global.map((key) => key.name).join(', ')})`);
  }
});
