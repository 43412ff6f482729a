// The embedded database's statement budget: PGlite runs in a worker thread, so
// a statement that runs for long leaves this thread's event loop free, and one
// that runs past its `SET LOCAL statement_timeout` is stopped by reopening
// PGlite. Its caller gets PostgreSQL's 57014; rows committed before (by this
// or any other connection) are all there afterwards, its own uncommitted ones
// are not, and the other connections' pools carry on on new connections.
// Runs in its own process: the embedded database (PGlite) runs in this process.
import { rm } from 'node:fs/promises';
import pg from 'pg';
import t from 'tap';
import { startEmbeddedDatabase } from '../../core/db/embedded.ts';
import { initializedTestDataDir } from '../../core/sdk/embedded-template.ts';

/** Constant folding runs this while planning: about a second of PGlite per column (seconds under load). */
const HOSTILE = `SELECT length(regexp_replace(repeat('ab', 20000000), 'b', 'cc', 'g')) AS n1,
  length(regexp_replace(repeat('ab', 20000001), 'b', 'cc', 'g')) AS n2,
  length(regexp_replace(repeat('ab', 20000002), 'b', 'cc', 'g')) AS n3`;

/** The longest gap between 20 ms ticks of this thread's event loop while fn runs. */
async function longestStall<T>(fn: () => Promise<T>): Promise<{ result: T; stallMs: number }> {
  let last = performance.now();
  let stallMs = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last - 20);
    last = now;
  }, 20);
  try {
    return { result: await fn(), stallMs };
  } finally {
    clearInterval(ticker);
  }
}

t.test('a statement past its budget is stopped; nothing committed is lost; the pool recovers', async (t) => {
  const dataDir = await initializedTestDataDir();
  const restarts: string[] = [];
  let embedded = await startEmbeddedDatabase(dataDir, { onRestart: ({ reason }) => restarts.push(reason) });
  const pool = new pg.Pool({ connectionString: embedded.url, max: 4 });
  pool.on('error', () => {}); // idle connections closed by the reopen
  t.teardown(async () => {
    await pool.end().catch(() => {});
    await embedded.stop();
    await rm(dataDir, { recursive: true, force: true });
  });
  await pool.query('CREATE TABLE ledger (id int PRIMARY KEY, writer text)');

  // Writers commit rows on their own connections while the hostile statement runs.
  const acknowledged: number[] = [];
  let writing = true;
  const writers = [0, 1].map(async (writer) => {
    for (let id = writer; writing; id += 2) {
      try {
        await pool.query('INSERT INTO ledger VALUES ($1, $2)', [id, `w${writer}`]);
        acknowledged.push(id);
      } catch {
        // its connection was closed by the reopen: the row was not acknowledged
      }
    }
  });

  const client = await pool.connect();
  client.on('error', () => {});
  await client.query('BEGIN');
  await client.query('INSERT INTO ledger VALUES (-1, $1)', ['hostile']);
  await client.query('SET LOCAL statement_timeout = 500');
  const started = performance.now();
  // A literal that reads like a SET does not change the statement's own budget.
  const trick = `${HOSTILE}, 'x; SET LOCAL statement_timeout = 999999999' AS trick`;
  const { result: failure, stallMs } = await longestStall(() => client.query(trick).then(() => undefined, (err: Error & { code?: string }) => err));
  const elapsed = performance.now() - started;
  t.equal(failure?.code, '57014', 'the statement fails as PostgreSQL fails it');
  t.match(failure?.message, /statement timeout/);
  t.ok(elapsed < 5_000, `stopped soon after its budget (${Math.round(elapsed)} ms)`);
  t.ok(stallMs < 1_000, `this thread's event loop kept running (longest stall ${Math.round(stallMs)} ms)`);
  await client.query('ROLLBACK'); // as a transaction helper does after an error
  client.release();
  writing = false;
  await Promise.all(writers);
  t.same(restarts, ['statement_budget'], 'PGlite was reopened once');

  const { rows } = await pool.query<{ id: number }>('SELECT id FROM ledger ORDER BY id');
  const stored = new Set(rows.map((row) => row.id));
  t.ok(acknowledged.length > 0, `${acknowledged.length} rows were committed around the stop`);
  t.same(acknowledged.filter((id) => !stored.has(id)), [], 'every acknowledged row is there');
  t.notOk(stored.has(-1), "the stopped transaction's row is not");

  // The same data after the whole database is closed and opened again.
  await pool.end();
  await embedded.stop();
  embedded = await startEmbeddedDatabase(dataDir);
  const reopened = new pg.Client({ connectionString: embedded.url });
  await reopened.connect();
  const again = await reopened.query<{ n: number }>('SELECT count(*)::int AS n FROM ledger');
  t.equal(again.rows[0]!.n, stored.size, 'and after a restart of the database');
  await reopened.end();
});

t.test('an extended-protocol statement past its budget, and one within it', async (t) => {
  const dataDir = await initializedTestDataDir();
  const embedded = await startEmbeddedDatabase(dataDir);
  const client = new pg.Client({ connectionString: embedded.url });
  client.on('error', () => {});
  t.teardown(async () => {
    await client.end().catch(() => {});
    await embedded.stop();
    await rm(dataDir, { recursive: true, force: true });
  });
  await client.connect();
  await client.query('BEGIN');
  await client.query('SET LOCAL statement_timeout = 5000');
  const quick = await client.query<{ n: number }>('SELECT $1::int + 1 AS n', [1]);
  t.equal(quick.rows[0]!.n, 2, 'a statement within its budget runs');
  await client.query('COMMIT');

  await client.query('BEGIN');
  await client.query('SET LOCAL statement_timeout = 300');
  const failure = await client.query(`${HOSTILE} WHERE $1::int = 1`, [1]).then(() => undefined, (err: Error & { code?: string }) => err);
  t.equal(failure?.code, '57014', 'parameters (Parse, Bind, Execute, Sync) fail the same way');
  await client.query('ROLLBACK').catch(() => {});
  // Its connection is closed once idle; a new one works.
  const next = new pg.Client({ connectionString: embedded.url });
  await next.connect();
  t.equal((await next.query<{ one: number }>('SELECT 1 AS one')).rows[0]!.one, 1, 'the database answers after the reopen');
  await next.end();
});
