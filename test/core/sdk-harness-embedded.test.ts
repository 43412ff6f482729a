// The SDK's harness with neither TEST_DATABASE_URL nor DATABASE_URL set, as a
// partner's test runs it: the platform on the embedded database, a fresh data
// directory per test copied from a migrated template. A child process (a
// node:test file) boots a platform (tenancy only: the template is built for
// the test's manifest, and one plugin's is quick), creates a tenant through the
// API, lists it with the CLI through the running platform, restarts on the
// same data and finds it there; at teardown the data directory is gone and
// the process exits by itself (PGlite's thread and socket stopped).
// Runs in its own process: it runs the harness without TEST_DATABASE_URL.
import t from 'tap';
import { spawn } from 'node:child_process';
import { access, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ROOT_DIR } from '../../core/paths.ts';

const CHILD = `
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { runCli, startTestPlatform, tenantWithAdmin } from ${JSON.stringify(path.join(ROOT_DIR, 'core/sdk/testing.ts'))};

test('a platform on the embedded database, restarted on its data', async (t) => {
  const harness = { teardown: (fn) => t.after(fn) };
  const manifest = 'test/fixtures/manifests/tenancy-only.yaml';
  const first = await startTestPlatform(harness, { manifest });
  await tenantWithAdmin(first, 'acme');
  const listed = await runCli(['tenants', 'list', '--json'], { platform: first });
  assert.equal(listed.code, 0, listed.stderr);
  await first.stop();
  const second = await startTestPlatform(harness, { manifest, databaseUrl: first.databaseUrl, env: { PLATFORM_MASTER_KEY: first.env.PLATFORM_MASTER_KEY } });
  const tenants = await second.request({ url: '/api/admin/tenants', token: second.adminToken });
  console.log('RESULT ' + JSON.stringify({
    databaseUrl: first.databaseUrl,
    dataDir: fileURLToPath(first.databaseUrl),
    embedded: second.platform.core.config.databaseUrl === undefined,
    cli: listed.json,
    tenants: tenants.body.items.map((tenant) => tenant.id),
  }));
});
`;

// The first embedded test of a run also builds the template data directory.
t.setTimeout(600_000);

function runChild(file: string): Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }> {
  const env = { ...process.env };
  delete env.TEST_DATABASE_URL;
  delete env.DATABASE_URL;
  delete env.PLATFORM_DATA_DIR;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [file], { cwd: ROOT_DIR, env });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    // Past this it did not exit by itself.
    const timer = setTimeout(() => child.kill('SIGKILL'), 540_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, output });
    });
  });
}

t.test('without TEST_DATABASE_URL the harness runs the platform on the embedded database', async (t) => {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'sdk-harness-embedded-'));
  t.teardown(() => rm(scratch, { recursive: true, force: true }));
  const file = path.join(scratch, 'embedded.test.mjs');
  await writeFile(file, CHILD);
  const { code, signal, output } = await runChild(file);
  t.equal(signal, null, 'the test process exits by itself');
  t.equal(code, 0, output);
  const line = /RESULT (.*)/.exec(output)?.[1];
  t.ok(line, 'the child reports its result');
  const result = JSON.parse(line ?? '{}');
  t.match(result.databaseUrl, /^file:/, 'the test database is a data directory');
  t.ok(result.embedded, 'the platform runs on the embedded database');
  t.ok(result.cli?.items?.some((tenant: { id: string }) => tenant.id === 'acme'), 'the CLI reaches the running platform');
  t.same(result.tenants, ['acme'], 'the restart finds the tenant');
  await t.rejects(access(result.dataDir), { code: 'ENOENT' }, 'the data directory is removed at teardown');
});
