// Rate limits and cache invalidation shared through PostgreSQL, with two
// instances of each on one database standing for two processes: a limit
// holds across both, a throttled key stays throttled, refilled rows are
// swept, the local overflow is charged to one shared key; a message reaches
// every subscriber, and a lost LISTEN connection comes back and says that
// messages may have been missed.
import t from 'tap';
import pg from 'pg';
import { Kysely, PostgresDialect } from 'kysely';
import { pino } from 'pino';
import { createTestDatabase, until } from '../harness.ts';
import { SharedRateLimits } from '../../core/http/shared-rate-limit.ts';
import { InvalidationBus } from '../../core/db/invalidation.ts';

if (!process.env.TEST_DATABASE_URL) {
  t.comment('PostgreSQL only (TEST_DATABASE_URL): the embedded database has one process, whose limits are local');
  process.exit(0);
}

const silent = pino({ level: 'silent' });

const statusOf = async (take: Promise<void>) => {
  try {
    await take;
    return 200;
  } catch (err) {
    const { statusCode, headers } = (err as { output: { statusCode: number; headers: Record<string, string> } }).output;
    return statusCode === 429 ? `429 after ${headers['Retry-After']}` : statusCode;
  }
};

t.test('shared rate limits and invalidation', async (t) => {
  const url = await createTestDatabase(t, { migrated: true });
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  t.teardown(() => pool.end());

  await t.test('a limit holds across two processes; a throttled key stays throttled until it refills', async (t) => {
    let now = 1_000_000;
    const options = { ratePerSecond: 1, burst: 3, message: (s: number) => `retry in ${s}`, now: () => now };
    const a = new SharedRateLimits(pool, silent, () => now).limiter('test.limit', options);
    const b = new SharedRateLimits(pool, silent, () => now).limiter('test.limit', options);
    t.same([await statusOf(a.take('k')), await statusOf(b.take('k')), await statusOf(a.take('k'))], [200, 200, 200]);
    t.equal(await statusOf(b.take('k')), '429 after 1', 'the fourth, on the other process, is refused');
    t.equal(await statusOf(a.take('other')), 200, 'another key has its own bucket');
    now += 1_000;
    t.equal(await statusOf(b.take('k')), 200, 'one token back after a second');
    t.equal(await statusOf(a.take('k')), '429 after 1');
    const other = new SharedRateLimits(pool, silent, () => now).limiter('test.other', options);
    t.equal(await statusOf(other.take('k')), 200, 'another limiter name is another limit');
  });

  await t.test('tokens taken in batches: the processes together admit the burst, not more', async (t) => {
    let now = 3_000_000;
    const options = { ratePerSecond: 0.001, burst: 20, message: () => 'no', now: () => now };
    const a = new SharedRateLimits(pool, silent, () => now).limiter('test.batch', options);
    const b = new SharedRateLimits(pool, silent, () => now).limiter('test.batch', options);
    const statuses: (number | string)[] = [];
    for (let i = 0; i < 13; i++) {
      statuses.push(await statusOf(a.take('hot')));
      statuses.push(await statusOf(b.take('hot')));
    }
    t.equal(statuses.filter((s) => s === 200).length, 20, 'exactly the burst admitted');
    t.same(statuses.slice(20).every((s) => typeof s === 'string' && s.startsWith('429')), true, 'then every take is refused');
    const { rows } = await pool.query<{ granted: number }>("SELECT granted FROM platform_rate_limits WHERE limiter = 'test.batch'");
    t.equal(rows[0]?.granted, 0, 'the last upsert found nothing left');
    now += 1_000;
  });

  await t.test('rows whose bucket is full again are swept; partial ones stay', async (t) => {
    let now = 5_000_000;
    const limits = new SharedRateLimits(pool, silent, () => now);
    const limiter = limits.limiter('test.sweep', { ratePerSecond: 1, burst: 2, message: () => 'no', now: () => now });
    await limiter.take('full-soon');
    now += 500;
    await limiter.take('partial');
    now += 600; // full-soon is full again (1 token + 1.1 s); partial is not (0.6 s)
    t.ok(await limits.sweep() >= 1);
    const { rows } = await pool.query<{ key: string }>("SELECT key FROM platform_rate_limits WHERE limiter = 'test.sweep'");
    t.same(rows.map((row) => row.key), ['partial']);
  });

  await t.test('keys past the local bound share one shared overflow key', async (t) => {
    const now = 9_000_000;
    const limiter = new SharedRateLimits(pool, silent, () => now)
      .limiter('test.bound', { ratePerSecond: 1, burst: 1, message: () => 'no', now: () => now, maxKeys: 2 });
    t.same([await statusOf(limiter.take('a')), await statusOf(limiter.take('b')), await statusOf(limiter.take('c')), await statusOf(limiter.take('d'))],
      [200, 200, 200, '429 after 1']);
    const { rows } = await pool.query<{ key: string }>("SELECT key FROM platform_rate_limits WHERE limiter = 'test.bound' ORDER BY key");
    t.same(rows.map((row) => row.key), ['\u0001overflow', 'a', 'b'], 'c was charged to the overflow key, d refused by it');
  });

  await t.test('a message reaches every process; a lost connection comes back and reports a possible miss', async (t) => {
    const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
    const seen: string[] = [];
    const one = new InvalidationBus(db, { listen: url, notifies: true }, silent);
    const two = new InvalidationBus(db, { listen: url, notifies: true }, silent);
    t.teardown(async () => {
      await one.stop();
      await two.stop();
    });
    let missed = 0;
    one.subscribe('test.cache', { message: (payload) => seen.push(`one:${payload}`), missed: () => missed++ });
    two.subscribe('test.cache', { message: (payload) => seen.push(`two:${payload}`), missed: () => {} });
    await until(async () => one.live && two.live && missed === 1, 'both listening');
    await two.publish('test.cache', 'key-1');
    await until(async () => seen.length === 2, 'both got it');
    t.same(seen.sort(), ['one:key-1', 'two:key-1'], 'the publisher hears its own message too');

    // A message in a transaction that rolls back is never delivered; one that commits is.
    await db.transaction().execute(async (trx) => {
      await one.publish('test.cache', 'committed', trx);
    });
    await db.transaction().execute(async (trx) => {
      await one.publish('test.cache', 'rolled-back', trx);
      throw new Error('roll back');
    }).catch(() => {});
    await two.publish('test.cache', 'last');
    await until(async () => seen.filter((entry) => entry.startsWith('one:')).length === 3, 'three messages');
    t.same(seen.filter((entry) => entry.startsWith('one:')), ['one:key-1', 'one:committed', 'one:last']);

    // The server ends the LISTEN connection: it is opened again, and the subscriber drops everything.
    await pool.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
      WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()`);
    await until(async () => missed === 2 && one.live, 'listening again');
    await two.publish('test.cache', 'after');
    await until(async () => seen.includes('one:after'), 'a message after the reconnect');
    t.pass('messages arrive again');
    t.throws(() => one.subscribe('Bad Channel', { message: () => {}, missed: () => {} }), /Invalid invalidation channel/);
  });
});
