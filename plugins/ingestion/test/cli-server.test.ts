// The ingestion commands that call the running server, run as the `platform`
// command: a server that is not there is one line naming its address and what
// to do (exit 1); without a token the command names the settings; with
// neither --url nor PLATFORM_URL it finds the server `platform serve` runs on
// the data directory.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { runCli } from 'agent-platform/sdk/testing';
import { recordServer } from '../../../core/cli/server.ts';
import { ingestionFixture } from './helpers.ts';

/** A loopback port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

t.test('a server command with nothing listening: one line naming the address, exit 1', async (t) => {
  const port = await closedPort();
  const result = await runCli(['search', 'anything', '--tenant', 'acme', '--url', `http://127.0.0.1:${port}`, '--token', 'adm_x']);
  t.equal(result.code, 1);
  t.equal(result.stderr, `error: cannot reach the platform at http://127.0.0.1:${port} (ECONNREFUSED): start it (npm start), or give its address with --url or PLATFORM_URL\n`);
  t.equal(result.stdout, '');
});

t.test('without a token the command names the settings to give', async (t) => {
  const result = await runCli(['search', 'anything', '--tenant', 'acme', '--url', 'http://127.0.0.1:9'], { env: { PLATFORM_TOKEN: '', ADMIN_TOKEN: '' } });
  t.equal(result.code, 1);
  t.match(result.stderr, /^error: this command calls the running server and needs a token: give --token, or set PLATFORM_TOKEN .* or ADMIN_TOKEN .*\n$/);
});

t.test('without --url or PLATFORM_URL, the server running on the data directory is found', async (t) => {
  const { tp, token } = await ingestionFixture(t, { listen: true });
  const dataDir = await mkdtemp(path.join(tmpdir(), 'platform-cli-data-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  // What `platform serve` writes once listening (this process stands for it: its pid is alive).
  await recordServer(dataDir, tp.url(''));
  const env = { PLATFORM_DATA_DIR: dataDir, PLATFORM_URL: '', PORT: String(await closedPort()) };
  const found = await runCli(['search', 'warehouse', '--tenant', 'acme', '--token', token, '--json'], { env });
  t.equal(found.code, 0, found.stderr);
  t.same(found.json.results, []);
});
