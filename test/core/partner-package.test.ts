// A partner plugin package, from `platform plugin init` to a deployment, as
// plugins/README.md ("Publishing as a package") tells it: scaffolded, built
// (tsc into dist/, sql/ copied), packed with `npm pack`, and installed from the
// tarball into a deployment's node_modules outside this repository (extracted
// with tar: no registry), where plain Node cannot resolve `agent-platform`.
// The platform boots a manifest that extends the default one and names the
// installed package: its migration runs and its route answers. The scaffold's
// own test passes with `node --test` and no database set up (the harness's
// embedded default).
// Runs in its own process: it builds and installs a package (npm), minutes of its own.
import t from 'tap';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT_DIR } from '../../core/paths.ts';
import { startTestPlatform, tenantWithAdmin } from '../../core/sdk/testing.ts';

const run = promisify(execFile);
// The scaffold's test is the first embedded test of a run when it also builds the template data directory.
t.setTimeout(600_000);
const PACKAGE = '@acme/platform-plugin-packed';

t.test('a scaffolded package, built, packed and installed from its tarball, boots with the platform', async (t) => {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'partner-package-'));
  t.teardown(() => rm(scratch, { recursive: true, force: true }));
  const source = path.join(scratch, 'source');

  // Scaffold; a second init into the same folder is refused, as is a name npm would refuse.
  const init = await run(process.execPath, [path.join(ROOT_DIR, 'core/cli/bin.ts'), 'plugin', 'init', PACKAGE, '--dir', source, '--json']);
  t.match(JSON.parse(init.stdout), { dir: source, package: PACKAGE, plugin: 'packed' });
  await t.rejects(run(process.execPath, [path.join(ROOT_DIR, 'core/cli/bin.ts'), 'plugin', 'init', PACKAGE, '--dir', source]), /exists and is not empty/);
  await t.rejects(run(process.execPath, [path.join(ROOT_DIR, 'core/cli/bin.ts'), 'plugin', 'init', 'Not A Name', '--dir', path.join(scratch, 'x')]), /not a valid npm package name/);

  // Its development dependencies, as `npm install` links them: this platform and TypeScript.
  await mkdir(path.join(source, 'node_modules'));
  await symlink(ROOT_DIR, path.join(source, 'node_modules', 'agent-platform'));
  await symlink(path.join(ROOT_DIR, 'node_modules', 'typescript'), path.join(source, 'node_modules', 'typescript'));
  await run(process.execPath, ['scripts/build.js'], { cwd: source });

  // Its own test, as `npm test` runs it once built: no TEST_DATABASE_URL, no DATABASE_URL.
  const partnerEnv = { ...process.env };
  delete partnerEnv.TEST_DATABASE_URL;
  delete partnerEnv.DATABASE_URL;
  delete partnerEnv.PLATFORM_DATA_DIR;
  const tested = await run(process.execPath, ['--test', '--test-reporter=tap', 'test/packed.test.ts'], { cwd: source, env: partnerEnv, timeout: 420_000 });
  t.match(tested.stdout, /^# pass 1$/m, 'the scaffold\'s test passes on the embedded database');
  t.match(tested.stdout, /^# fail 0$/m);

  const packed = await run('npm', ['pack', '--offline', '--json', '--pack-destination', scratch], { cwd: source });
  const tarball = path.join(scratch, (JSON.parse(packed.stdout) as { filename: string }[])[0].filename);
  const installed = path.join(scratch, 'deployment', 'node_modules', ...PACKAGE.split('/'));
  await mkdir(installed, { recursive: true });
  await run('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1']);
  t.same((await readdir(path.join(installed, 'dist'), { recursive: true })).sort(), [
    'cli.js', 'event-types.js', 'plugin.js', 'routes', path.join('routes', 'items.js'), 'services', 'services.js', path.join('services', 'items.js'),
    'sql', path.join('sql', '0001_init.sql'), 'store', path.join('store', 'items.js'), path.join('store', 'tables.js'),
  ], 'the tarball ships the compiled modules, in the plugin layout, and the migrations');

  // Outside the platform's tree, Node alone does not find the SDK the package imports.
  await t.rejects(run(process.execPath, ['--input-type=module', '-e', `await import(${JSON.stringify(path.join(installed, 'dist', 'plugin.js'))})`]),
    /Cannot find package 'agent-platform'/);

  const manifest = path.join(scratch, 'deployment', 'deployment.yaml');
  await writeFile(manifest, [
    `extends: ${JSON.stringify(path.join(ROOT_DIR, 'manifests', 'default.yaml'))}`,
    'plugins:',
    `  - plugin: ${JSON.stringify(installed)}`,
    '',
  ].join('\n'));
  const tp = await startTestPlatform(t, { manifest });
  const acme = await tenantWithAdmin(tp, 'acme');
  const listed = await tp.request({ url: '/api/packed/items', token: acme.token });
  t.same([listed.status, listed.body.items], [200, []]);
  const pool = tp.platform.core.pool;
  t.same((await pool.query(`SELECT name FROM platform_migrations WHERE plugin = 'packed'`)).rows, [{ name: '0001_init.sql' }]);
  t.same((await pool.query(`SELECT relrowsecurity, relforcerowsecurity FROM pg_class WHERE relname = 'packed_items'`)).rows,
    [{ relrowsecurity: true, relforcerowsecurity: true }]);
  const types = await tp.request({ url: '/api/admin/triggers/events/types', token: acme.token });
  t.ok(types.body.items.some((item: { type: string; builtin: boolean }) => item.type === 'packed.item.created' && !item.builtin), 'its event type is registered');
  t.match(JSON.parse(await readFile(path.join(installed, 'package.json'), 'utf8')), {
    exports: { '.': './dist/plugin.js' }, peerDependenciesMeta: { 'agent-platform': { optional: true } },
  });
});
