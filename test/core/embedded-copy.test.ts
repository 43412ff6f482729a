// COPY … FROM STDIN on the embedded database (PGlite behind its loopback
// socket): text and binary data land, in a transaction or not; a bad row or a
// client's CopyFail fails the COPY and nothing lands, and the connection goes
// on; another connection waiting meanwhile gets the session once it is over.
// Runs in its own process: the embedded database (PGlite) runs in this process.
import t from 'tap';
import { rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { startEmbeddedDatabase } from '../../core/db/embedded.ts';
import { initializedTestDataDir } from '../../core/sdk/embedded-template.ts';

t.test('COPY FROM STDIN on the embedded database', async (t) => {
  const dataDir = await initializedTestDataDir();
  const embedded = await startEmbeddedDatabase(dataDir);
  const clients: pg.Client[] = [];
  const connect = async () => {
    const client = new pg.Client({ connectionString: embedded.url });
    client.on('error', () => {});
    await client.connect();
    clients.push(client);
    return client;
  };
  t.teardown(async () => {
    for (const client of clients) await client.end().catch(() => {});
    await embedded.stop();
    await rm(dataDir, { recursive: true, force: true });
  });
  const copyIn = async (client: pg.Client, statement: string, chunks: (string | Buffer)[]) => {
    const copy = client.query(copyFrom(statement));
    await pipeline(Readable.from(chunks), copy);
    return copy.rowCount;
  };
  const rows = async (client: pg.Client) => (await client.query('SELECT a, b FROM t ORDER BY a')).rows.map((row) => `${row.a}:${row.b}`);

  const one = await connect();
  await one.query('CREATE TABLE t (a bigint, b text)');
  t.equal(await copyIn(one, 'COPY t (a, b) FROM STDIN', ['1\tone\n2\t', 'two\n']), 2, 'text, outside a transaction, rows split across messages');
  t.same(await rows(one), ['1:one', '2:two']);

  await one.query('BEGIN');
  t.equal(await copyIn(one, 'COPY t (a, b) FROM STDIN', ['3\tthree\n']), 1, 'inside a transaction');
  await one.query('ROLLBACK');
  t.same(await rows(one), ['1:one', '2:two'], 'rolled back with it');

  // Binary: what COPY TO STDOUT (FORMAT binary) gives back in again.
  const binary: Buffer[] = [];
  await pipeline(one.query(copyTo('COPY (SELECT a + 10, b || \'!\' FROM t) TO STDOUT (FORMAT binary)')), async function* (source) {
    for await (const chunk of source) binary.push(chunk as Buffer);
  });
  t.equal(await copyIn(one, 'COPY t (a, b) FROM STDIN (FORMAT binary)', binary), 2, 'binary');
  t.same(await rows(one), ['1:one', '2:two', '11:one!', '12:two!']);

  await t.rejects(copyIn(one, 'COPY t (a, b) FROM STDIN', ['4\tfour\nnot-a-number\tfive\n']), /invalid input syntax for type bigint/, 'a bad row fails the COPY');
  await t.rejects(copyIn(one, 'COPY missing (a) FROM STDIN', ['1\n']), /relation "missing" does not exist/, 'so does a bad statement (after its data)');
  const failing = Readable.from((async function* () {
    yield '5\tfive\n';
    throw new Error('the source broke off');
  })());
  await t.rejects(pipeline(failing, one.query(copyFrom('COPY t (a, b) FROM STDIN'))), /the source broke off/, 'a CopyFail from the client');
  t.same(await rows(one), ['1:one', '2:two', '11:one!', '12:two!'], 'none of the failed rows landed; the connection goes on');

  // Another connection asking meanwhile waits for the COPY's end, then gets the session.
  const two = await connect();
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let started!: () => void;
  const inCopy = new Promise<void>((resolve) => (started = resolve));
  const slow = Readable.from((async function* () {
    yield '20\ttwenty\n';
    started(); // the client got its CopyInResponse and sends data: the COPY holds the session
    await gate;
    yield '21\ttwenty-one\n';
  })());
  const copying = pipeline(slow, one.query(copyFrom('COPY t (a, b) FROM STDIN')));
  await inCopy;
  const counted = two.query('SELECT count(*)::int AS n FROM t');
  setTimeout(release, 200);
  await copying;
  t.equal((await counted).rows[0].n, 6, 'the waiting query ran after the COPY, and sees its rows');
});
