// Declared dependencies and extension points, on a real platform: optional
// dependencies order the plugins when present, `register` receives only the
// apis it declared, a contribution reaches its point's owner whatever the
// order they register in, and a contribution nobody can receive stops the
// boot with one clear line. `platform plugins` shows all of it.
import t from 'tap';
import { runCli, startTestPlatform, type ManifestValue } from '../harness.ts';
import type {} from '../fixtures/plugins/point-owner/plugin.ts';
import type {} from '../fixtures/plugins/point-contributor/plugin.ts';

const fixture = (name: string) => ({ plugin: `./test/fixtures/plugins/${name}` });
const manifest = (...names: string[]): ManifestValue => ({ plugins: [{ plugin: './plugins/tenancy' }, ...names.map(fixture)] });

t.test('optional dependency loaded: it registers first, its api is injected, contributions from before and after its register reach it', async (t) => {
  const tp = await startTestPlatform(t, { manifest: manifest('early-contributor', 'point-contributor', 'point-owner') });
  const plugins = tp.platform.server.plugins;
  t.same(plugins['point-owner'].api.greetings(), [
    { text: 'early', contributor: 'early-contributor' },
    { text: 'hello', contributor: 'point-contributor' },
  ], 'the early contribution is replayed at consume, the later one delivered at once');
  t.same(plugins['point-contributor'].api.received, ['tenancy', 'point-owner'], 'only the declared apis');
  t.equal(plugins['point-contributor'].api.sawOwner, true);
  t.same(tp.platform.core.extensions.points(), [
    { name: 'point-owner.greetings', owner: 'point-owner', description: 'A greeting the owner lists (text)' },
  ]);
});

t.test('optional dependency absent: the plugin boots without it and contributes nothing', async (t) => {
  const tp = await startTestPlatform(t, { manifest: manifest('point-contributor') });
  const api = tp.platform.server.plugins['point-contributor'].api;
  t.same(api.received, ['tenancy', 'point-owner'], 'the name is there, its value undefined');
  t.equal(api.sawOwner, false);
});

t.test('a contribution nobody can receive stops the boot', async (t) => {
  await t.rejects(startTestPlatform(t, { manifest: manifest('point-orphan') }), {
    name: 'PluginContractError',
    message: /plugin "point-orphan" uses extension point "point-owner.greetings", which no loaded plugin declares/,
  });
  await t.rejects(startTestPlatform(t, { manifest: manifest('point-unconsumed') }), {
    name: 'PluginContractError',
    message: 'plugin "point-unconsumed" declares extension point "point-unconsumed.things" but never consumes it (contributions from point-unconsumed)',
  });
});

t.test('platform plugins lists the registration order, dependencies, optional ones and extension points', async (t) => {
  const result = await runCli(['plugins', '--json'], { env: { PLATFORM_MANIFEST: 'test/fixtures/manifests/extension-points.yaml', DATABASE_URL: '' } });
  t.equal(result.code, 0, result.stderr);
  t.same(result.json.map((plugin: { name: string }) => plugin.name), ['tenancy', 'early-contributor', 'point-owner', 'point-contributor']);
  t.match(result.json[3], {
    name: 'point-contributor', builtin: false, entry: 'test/fixtures/plugins/point-contributor/plugin.ts',
    dependencies: ['tenancy'], optional_dependencies: [{ name: 'point-owner', loaded: true }], extension_points: [],
  });
  t.same(result.json[2].extension_points, [{ name: 'point-owner.greetings', description: 'A greeting the owner lists (text)' }]);
  const text = await runCli(['plugins'], { env: { PLATFORM_MANIFEST: 'test/fixtures/manifests/extension-points.yaml', DATABASE_URL: '' } });
  t.match(text.stdout, /point-contributor\s+0\.0\.0\s+tenancy\s+point-owner\s+/);
});
