import t from 'tap';
import path from 'node:path';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { MAX_EXTENDS_DEPTH, manifestSettings, parseWithEnv, readManifest } from '../../core/manifest.ts';
import { resolvePlugins } from '../../core/plugin-loader.ts';
import { runCli } from '../harness.ts';
import { ROOT_DIR } from '../../core/paths.ts';

const fixture = (name: string) => path.join(ROOT_DIR, 'test', 'fixtures', 'manifests', `${name}.yaml`);

t.test('substitutes ${ENV:default} with YAML typing and validates options', async (t) => {
  const defaults = await readManifest(fixture('with-options'), {});
  t.same(defaults.server, { port: 9999, host: '127.0.0.1' });
  const plugins = await resolvePlugins(defaults, ROOT_DIR);
  t.same(plugins[0].options, { maxConcurrent: 5, label: 'run-x' });

  const fromEnv = await readManifest(fixture('with-options'), { TEST_PORT: '7000', TEST_MAX: '12', TEST_LABEL: 'blue' });
  t.equal(fromEnv.server.port, 7000);
  t.same((await resolvePlugins(fromEnv, ROOT_DIR))[0].options, { maxConcurrent: 12, label: 'run-blue' });
});

t.test('the default manifest loads and orders plugins after their dependencies', async (t) => {
  const manifest = await readManifest(fixture('job-probe'), {});
  const names = (await resolvePlugins({ ...manifest, plugins: [...manifest.plugins].reverse() }, ROOT_DIR)).map((p) => p.name);
  t.same(names, ['tenancy', 'job-probe']);
});

t.test('manifest errors are one clear line', async (t) => {
  const cases: [string, RegExp][] = [
    ['unknown-plugin', /unknown plugin "\.\/plugins\/does-not-exist"/],
    ['missing-dependency', /plugin "needs-missing" depends on "no-such-plugin", which the manifest does not load/],
    ['invalid-option', /plugin "with-options" has an invalid option: "maxConcurrent" must be a number/],
  ];
  for (const [name, message] of cases) {
    await t.rejects(resolvePlugins(await readManifest(fixture(name), {}), ROOT_DIR), message, name);
    await t.rejects(resolvePlugins(await readManifest(fixture(name), {}), ROOT_DIR), { name: 'ManifestError' });
  }
  await t.rejects(readManifest(fixture('nope'), {}), /cannot read manifest/);
  t.throws(() => parseWithEnv('server: { port: ${NO_SUCH_VAR} }', {}), /\$\{NO_SUCH_VAR\}, which is not set and has no default/);
});

t.test('extends: the base\'s plugins, then the extension\'s; an entry both list is replaced in place; server keys override', async (t) => {
  const extended = await readManifest(fixture('extends-with-options'), { TEST_MAX: '12' });
  t.same(extended.server, { port: 7100, host: '127.0.0.1' }, 'port from the extension, host from the base');
  t.same(extended.plugins, [
    { plugin: './test/fixtures/plugins/with-options/', options: { maxConcurrent: 3, label: 'replaced' } },
    { plugin: './test/fixtures/plugins/job-probe', options: {} },
    { plugin: './plugins/tenancy', options: {} },
  ], 'the base\'s entry replaced where it stood, options included; the others appended in order');
  t.same((await resolvePlugins(extended, ROOT_DIR)).map((p) => [p.name, p.options]), [
    ['with-options', { maxConcurrent: 3, label: 'replaced' }], ['tenancy', { allowLocalhostOrigins: false }], ['job-probe', {}],
  ]);

  const twice = await readManifest(fixture('extends-twice'), {});
  t.same(twice.server, { port: 7100, host: '0.0.0.0' }, 'an extends of an extends');
  t.equal(twice.plugins.length, 3);

  const withDefault = await readManifest(fixture('extends-default'), {});
  const defaults = await readManifest(path.join(ROOT_DIR, 'manifests', 'default.yaml'), {});
  t.same(withDefault.plugins, [...defaults.plugins, { plugin: '@acme/platform-plugin-demo', options: {} }], 'every default plugin, then the partner\'s');
  t.same(withDefault.server, defaults.server);
  const names = (await resolvePlugins(withDefault, ROOT_DIR)).map((p) => p.name);
  t.equal(names.at(-1), 'demo');
});

t.test('extends errors name the files', async (t) => {
  const a = fixture('extends-cycle-a');
  const b = fixture('extends-cycle-b');
  await t.rejects(readManifest(a, {}), { name: 'ManifestError', message: `manifests extend each other in a cycle: ${a} -> ${b} -> ${a}` });
  await t.rejects(readManifest(fixture('extends-missing'), {}), {
    name: 'ManifestError', message: `manifest ${fixture('extends-missing')} extends ${fixture('no-such-base')}, which cannot be read`,
  });
  await t.rejects(readManifest(fixture('extends-invalid'), {}), { name: 'ManifestError', message: `manifest ${fixture('extends-invalid')}: "extends" must be a string` });

  const dir = await mkdtemp(path.join(os.tmpdir(), 'manifest-extends-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const level = (n: number) => path.join(dir, `level-${n}.yaml`);
  // level-0 extends level-1 … up to level-(MAX + 1), which extends nothing; level-1's reference is absolute.
  for (let n = 0; n <= MAX_EXTENDS_DEPTH + 1; n++) {
    const base = n === 0 ? level(1) : `level-${n + 1}.yaml`;
    await writeFile(level(n), n <= MAX_EXTENDS_DEPTH ? `extends: ${base}\nserver: { port: ${9000 + n} }\n` : 'plugins: []\n');
  }
  t.equal((await readManifest(level(1), {})).server.port, 9001, `${MAX_EXTENDS_DEPTH} manifests deep is accepted`);
  const chain = Array.from({ length: MAX_EXTENDS_DEPTH + 2 }, (_, n) => level(n)).join(' -> ');
  await t.rejects(readManifest(level(0), {}), { name: 'ManifestError', message: `manifest ${level(0)} extends more than ${MAX_EXTENDS_DEPTH} manifests deep: ${chain}` });

  const result = await runCli(['serve'], {
    env: { PLATFORM_MANIFEST: 'test/fixtures/manifests/extends-missing.yaml', DATABASE_URL: 'postgres://unused@127.0.0.1:1/none', LOG_LEVEL: undefined },
    timeoutMs: 30_000,
  });
  t.equal(result.code, 1);
  t.match(result.stderr.trim(), /^error: manifest \S+extends-missing\.yaml extends \S+no-such-base\.yaml, which cannot be read$/, 'boot stops with one line');
});

t.test('a default may hold braces; the settings a manifest feeds from the environment', async (t) => {
  const text = 'plugins:\n  - plugin: ./plugins/occurrences\n    options: { trackingUrl: ${TRACK:http://h/track/{reference}}, label: "x-${LABEL:y}", n: ${N} }\n';
  t.same(parseWithEnv(text, { N: '1' }), { plugins: [{ plugin: './plugins/occurrences', options: { trackingUrl: 'http://h/track/{reference}', label: 'x-y', n: 1 } }] });
  const set = parseWithEnv(text, { N: '1', TRACK: 'https://t/{reference}' }) as { plugins: { options: Record<string, unknown> }[] };
  t.same(set.plugins[0].options.trackingUrl, 'https://t/{reference}', 'a set variable is taken whole');
  t.same(manifestSettings(text), {
    server: [],
    plugins: [{ plugin: './plugins/occurrences', options: [{ key: 'trackingUrl', variable: 'TRACK', fallback: 'http://h/track/{reference}' }, { key: 'n', variable: 'N', fallback: undefined }] }],
  }, 'only options that are one whole placeholder');
});

t.test('a plugin from outside plugins/: a path anywhere or an npm package, with its sql/ next to its entry', async (t) => {
  const partner = path.join(ROOT_DIR, 'test', 'fixtures', 'partner-plugin');
  const entries = (plugin: string) => ({ server: { port: 0, host: '127.0.0.1' }, plugins: [{ plugin: './plugins/tenancy', options: {} }, { plugin, options: {} }] });
  for (const reference of [partner, './test/fixtures/partner-plugin', '@acme/platform-plugin-demo']) {
    const [, demo] = await resolvePlugins(entries(reference), ROOT_DIR);
    t.same([demo.name, demo.entry, demo.migrations], ['demo', path.join(partner, 'plugin.ts'), { plugin: 'demo', dir: path.join(partner, 'sql') }], reference);
    t.same(demo.options, { maxNoteLength: 500 }, 'options validated by its schema');
  }
  const cases: [string, RegExp][] = [
    ['kysely', /^plugin "kysely" is not a valid platform plugin: it exports no hapi plugin named "plugin"$/],
    ['@acme/no-such-plugin', /^unknown plugin "@acme\/no-such-plugin": no such npm package/],
    ['./test/fixtures', /^unknown plugin "\.\/test\/fixtures": test\/fixtures has no plugin\.ts and no package\.json entry$/],
    ['/nowhere/plugin-x', /^unknown plugin "\/nowhere\/plugin-x"/],
    ['./test/fixtures/plugins/old-cli', /^plugin "\.\/test\/fixtures\/plugins\/old-cli" is not a valid platform plugin: its cli is not made with defineCli$/],
  ];
  for (const [reference, message] of cases) await t.rejects(resolvePlugins(entries(reference), ROOT_DIR), { name: 'ManifestError', message }, reference);
});

t.test('boot fails with one line on stderr and exit code 1', async (t) => {
  for (const [name, message] of [
    ['not-a-plugin', /^error: plugin "kysely" is not a valid platform plugin/],
    ['unknown-plugin', /^error: unknown plugin/],
    ['missing-dependency', /^error: plugin "needs-missing" depends on "no-such-plugin"/],
    ['invalid-option', /^error: plugin "with-options" has an invalid option/],
  ] as const) {
    const result = await runCli(['serve'], {
      env: { PLATFORM_MANIFEST: `test/fixtures/manifests/${name}.yaml`, DATABASE_URL: 'postgres://unused@127.0.0.1:1/none', LOG_LEVEL: undefined },
      timeoutMs: 30_000,
    });
    t.equal(result.code, 1, `${name} exits 1`);
    const lines = result.stderr.trim().split('\n');
    t.equal(lines.length, 1, `${name} prints one line: ${result.stderr}`);
    t.match(lines[0], message);
  }
});
