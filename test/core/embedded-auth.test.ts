// The embedded PGlite socket listens on loopback, where every local user can
// connect: a connection needs the password generated at start (carried in the
// URL, which only this user's embedded.json holds).
// Runs in its own process: the embedded database (PGlite) runs in this process.
import t from 'tap';
import net from 'node:net';
import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedDatabase } from '../../core/db/embedded.ts';
import { initializedTestDataDir } from '../../core/sdk/embedded-template.ts';

/** A StartupMessage for user postgres, database postgres (protocol 3.0). */
function startupMessage(): Buffer {
  const body = Buffer.from('user\0postgres\0database\0postgres\0\0', 'utf8');
  const head = Buffer.alloc(8);
  head.writeInt32BE(8 + body.length, 0);
  head.writeInt32BE(196608, 4);
  return Buffer.concat([head, body]);
}

t.test('the embedded socket refuses connections without its password', async (t) => {
  const dataDir = await initializedTestDataDir();
  const embedded = await startEmbeddedDatabase(dataDir);
  t.teardown(async () => {
    await embedded.stop();
    await rm(dataDir, { recursive: true, force: true });
  });
  const url = new URL(embedded.url);
  t.match(url.password, /^[0-9a-f]{48}$/, 'the URL carries a generated password');
  t.equal((await stat(path.join(dataDir, 'embedded.json'))).mode & 0o777, 0o600, 'the holder file (with the URL) is owner-only');

  const right = new pg.Client({ connectionString: embedded.url });
  await right.connect();
  t.same((await right.query('SELECT 1 AS one')).rows, [{ one: 1 }], 'the password opens it');
  await right.end();

  const wrongUrl = new URL(embedded.url);
  wrongUrl.password = 'guessed';
  const wrong = new pg.Client({ connectionString: wrongUrl.toString() });
  wrong.on('error', () => {});
  const refused = await wrong.connect().then(() => undefined, (err) => err);
  t.equal(refused?.code, '28P01', 'a wrong password is refused');
  await wrong.end().catch(() => {});

  const noPasswordUrl = new URL(embedded.url);
  noPasswordUrl.password = '';
  const none = new pg.Client({ connectionString: noPasswordUrl.toString(), password: '' });
  none.on('error', () => {});
  t.ok(await none.connect().then(() => false, () => true), 'no password is refused');
  await none.end().catch(() => {});

  // A raw client that ignores the password request and sends a query anyway.
  const replies = await new Promise<Buffer>((resolve) => {
    const chunks: Buffer[] = [];
    const socket = net.connect({ host: url.hostname, port: Number(url.port) }, () => {
      socket.write(startupMessage());
      setTimeout(() => {
        const sql = Buffer.from('SELECT 42\0', 'utf8');
        const query = Buffer.alloc(5);
        query.write('Q', 0);
        query.writeInt32BE(4 + sql.length, 1);
        socket.write(Buffer.concat([query, sql]));
      }, 100);
    });
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => {});
    socket.on('close', () => resolve(Buffer.concat(chunks)));
    setTimeout(() => socket.destroy(), 3000);
  });
  t.same([...replies.subarray(0, 9)], [0x52, 0, 0, 0, 8, 0, 0, 0, 3], 'the server asks for a password');
  t.notOk(replies.includes(Buffer.from('ReadyForQuery')) || replies.includes(0x5a), 'never ready for a query');
  t.match(replies.toString('latin1'), /28P01|password authentication failed/, 'and refuses the query');
});
