// The ingestion commands that call the running server, run as the `platform`
// command: a server that is not there is one line naming its address and what
// to do (exit 1); without a token the command names the settings; with
// neither --url nor PLATFORM_URL it finds the server `platform serve` runs on
// the data directory. `collections create|list`, and `ingest`/`search`
// naming a collection by its name.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
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

t.test('collections create|list, and ingest and search naming the collection', async (t) => {
  const { tp, token } = await ingestionFixture(t, { listen: true });
  const cli = (...args: string[]) => runCli([...args, '--json'], { platform: tp, env: { PLATFORM_URL: tp.url(''), PLATFORM_TOKEN: token } });
  const created = await cli('collections', 'create', 'City', '--tenant', 'acme', '--description', 'the city\'s documents');
  t.equal(created.code, 0, created.stderr);
  t.match(created.json, { collection_id: Number, name: 'City', description: 'the city\'s documents', parent_id: null });
  const again = await cli('collections', 'create', 'city', '--tenant', 'acme');
  t.equal(again.code, 1, 'a name taken (in any case) is refused');
  t.equal(again.stderr, 'error: a collection named "city" already exists at the top level of tenant acme\n');
  const listed = await cli('collections', 'list', '--tenant', 'acme');
  t.same(listed.json.items.map((c: { name: string }) => c.name), ['City'], 'the refused one was not made');

  const folder = await mkdtemp(path.join(tmpdir(), 'ingestion-cli-named-'));
  t.teardown(() => rm(folder, { recursive: true, force: true }));
  await writeFile(path.join(folder, 'parks.txt'), 'The city parks open at dawn and close at dusk.');
  const ingested = await cli('ingest', folder, '--tenant', 'acme', '--collection', 'city');
  t.equal(ingested.code, 0, ingested.stderr);
  t.equal(ingested.json.uploaded.length, 1);
  t.match(ingested.json.status.counts, { ready: 1, error: 0 });
  const found = await cli('search', 'parks dawn', '--tenant', 'acme', '--collection', 'City');
  t.equal(found.code, 0, found.stderr);
  t.match(found.json.results[0], { doc_name: 'parks.txt', text: /parks/ });
  const missing = await cli('ingest', folder, '--tenant', 'acme', '--collection', 'harbour');
  t.equal(missing.code, 1);
  t.equal(missing.stderr, 'error: no collection named "harbour" in tenant acme: create it with platform collections create "harbour" --tenant acme\n');
});
