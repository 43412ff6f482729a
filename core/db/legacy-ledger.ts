// Databases created before migrations were kept per plugin have one flat
// ledger, platform_migrations(name, checksum), over the single sql/ folder
// (0010_events.sql, 0070_chat.sql...). Those files moved into their plugins,
// renumbered within each, unchanged but for one: 0071_chat_session_owner.sql
// also altered the events plugin's table, so it became chat's
// 0002_session_owner.sql and events' 0002_chain_depth.sql. On the first boot
// of this version the old rows are rewritten in place by this fixed table, so
// nothing is applied again. Each old row's checksum must be the released
// file's: a database that ran an edited copy is refused with the same message
// as any changed migration.
import type pg from 'pg';
import { MigrationError } from './migration-error.ts';

interface LedgerRow {
  plugin: string;
  name: string;
  checksum: string;
}

interface LegacyMigration {
  /** The released file's checksum, as the old ledger recorded it. */
  checksum: string;
  /** What it is now (the new files' checksums). */
  becomes: LedgerRow[];
}

const same = (plugin: string, name: string, checksum: string): LegacyMigration => ({ checksum, becomes: [{ plugin, name, checksum }] });

export const LEGACY_MIGRATIONS: Readonly<Record<string, LegacyMigration>> = {
  '0001_core.sql': same('core', '0001_core.sql', '0fc39267d2a8c5246dce51c2aa9b26452215c2a03188384439cbc8afee68ec31'),
  '0002_tenancy.sql': same('core', '0002_tenancy.sql', '85f4c6f171cad1b126fe6a9b5fce72f4edf66452965c004d63a38888011a8bc0'),
  '0003_jobs.sql': same('core', '0003_jobs.sql', '0b3a860799cdbd9acfcf9ad4c7f4f2729ccb8cce8b74f4b5987846c3c492194c'),
  '0004_job_workers.sql': same('core', '0004_job_workers.sql', '41d44f1e69e3480038527cd8fc9665c189702ae3c481865a41699395ecc820ac'),
  '0010_events.sql': same('events', '0001_init.sql', '77a77793c505e237c3d34176a91a08150800cc72e2b867374024a8c903c59798'),
  '0020_workflows.sql': same('workflows', '0001_init.sql', 'a358c7fcd9d4ff31781da85df95fa4d769a580586d0a54c03855c16c3046d12c'),
  '0030_webhooks.sql': same('webhooks', '0001_init.sql', '1775120857c59d943bb25ecf17917876a0ec60c9b34281094b33d809a58fcaa7'),
  '0031_webhooks_replay.sql': same('webhooks', '0002_replay.sql', 'ee4567dd8cd466c79d0564fec60e561b2dd658fb332ce4fb56b8604e2dac3caa'),
  '0040_ingestion.sql': same('ingestion', '0001_init.sql', '20fd9f6fa11bae1d7ac8247b37e6e548ed569d465f6d96da26f358513be10561'),
  '0050_citations.sql': same('citations', '0001_init.sql', '0a86e1292c11667c49b66a59a4f406a5f38a39b7efcde087b5bf65a88154b273'),
  '0060_integrations.sql': same('integrations', '0001_init.sql', 'd6aeacc8c62b7ad103bcdf983341aba1f800a4a62e0902c6ec4890b74f8dafae'),
  '0070_chat.sql': same('chat', '0001_init.sql', 'f80f9844533d4a424fb1d58517a68f7e5cb16c7a638f57482f0fd04ac9686187'),
  '0071_chat_session_owner.sql': {
    checksum: 'bf1cd506b2d900a2b54cc7e44467ed60b5a608f8b221ddddac2dab2b5a8419a6',
    becomes: [
      { plugin: 'chat', name: '0002_session_owner.sql', checksum: 'b4974198a4a5d4130bcb3079da4bba49f378689aeca5098ba4341703ade2e22c' },
      { plugin: 'events', name: '0002_chain_depth.sql', checksum: 'ec410fd224be1a8e798c51618d53775211fd677070ad01fa4c2112fb17c34b12' },
    ],
  },
};

const HAS_PLUGIN_COLUMN = `SELECT 1 FROM pg_attribute
  WHERE attrelid = to_regclass('platform_migrations') AND attname = 'plugin' AND NOT attisdropped`;

/** What each legacy row becomes; refuses rows this version does not know or whose file was edited. */
function legacyOf(row: { name: string; checksum: string }): LegacyMigration {
  const legacy = Object.hasOwn(LEGACY_MIGRATIONS, row.name) ? LEGACY_MIGRATIONS[row.name] : undefined;
  if (!legacy) throw new MigrationError(`the migration ledger names ${row.name}, which this version does not know; upgrade from a released version`);
  if (legacy.checksum !== row.checksum) {
    const now = legacy.becomes.map((target) => `${target.plugin}/${target.name}`).join(' and ');
    throw new MigrationError(`migration ${now} (formerly ${row.name}) was changed after it was applied; add a new migration instead`);
  }
  return legacy;
}

/** Rewrites a flat ledger's rows as (plugin, name) rows; a no-op on a per-plugin ledger. */
export async function upgradeLegacyLedger(pool: pg.Pool): Promise<void> {
  if ((await pool.query(HAS_PLUGIN_COLUMN)).rows.length > 0) return;
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('LOCK TABLE platform_migrations IN ACCESS EXCLUSIVE MODE');
    // Another process may have upgraded it while this one waited for the lock.
    if ((await client.query(HAS_PLUGIN_COLUMN)).rows.length > 0) {
      await client.query('COMMIT');
      return;
    }
    const { rows } = await client.query<{ name: string; checksum: string; applied_at: Date }>('SELECT name, checksum, applied_at FROM platform_migrations');
    const legacies = rows.map(legacyOf);
    // The old key is on name alone, which the new names repeat across plugins.
    await client.query('ALTER TABLE platform_migrations ADD COLUMN plugin text, DROP CONSTRAINT platform_migrations_pkey');
    await client.query('DELETE FROM platform_migrations');
    for (const [index, row] of rows.entries()) {
      for (const target of legacies[index].becomes) {
        await client.query('INSERT INTO platform_migrations (plugin, name, checksum, applied_at) VALUES ($1, $2, $3, $4)',
          [target.plugin, target.name, target.checksum, row.applied_at]);
      }
    }
    await client.query('ALTER TABLE platform_migrations ALTER COLUMN plugin SET NOT NULL, ADD PRIMARY KEY (plugin, name)');
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}
