import t from 'tap';
import path from 'node:path';
import { manifestSettings, parseWithEnv, readManifest } from '../../core/manifest.ts';
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
