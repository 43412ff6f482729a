// `platform config`: the effective configuration (core settings, every
// loaded plugin's validated options and environment secrets), through the
// real CLI, as a table for people and JSON with --json; no secret is printed.
import t from 'tap';
import { runCli } from '../harness.ts';

const SECRET = 'webhook-secret-value-7f3a';
const DB_PASSWORD = 'db-password-91c2';

const env = {
  WEBHOOK_SECRET: SECRET,
  LLM_API_KEY: '',
  PLATFORM_MASTER_KEY: 'master-key-value-5d1e',
  DATABASE_URL: `postgres://platform:${DB_PASSWORD}@127.0.0.1:5432/platform`,
  EVENTS_MAX_CHAIN_DEPTH: '5',
  CHAT_MAX_CONCURRENT_TURNS_PER_TENANT: '7',
  PLATFORM_MANIFEST: 'manifests/default.yaml',
};

t.test('--json: core settings and each plugin\'s options, secrets redacted', async (t) => {
  const result = await runCli(['config', '--json'], { env });
  t.equal(result.code, 0, result.stderr);
  const report = result.json as { core: Record<string, unknown>; plugins: Record<string, { options: Record<string, unknown>; secrets: Record<string, unknown> }> };
  t.match(report.core, { jobsConcurrency: 5, tokenIssuer: 'agent-platform', graphqlMaxDepth: 12 });
  t.equal(report.core.masterKey, '***', 'a core secret that is set');
  t.equal(report.core.serviceJwtSecret, process.env.SERVICE_JWT_SECRET ? '***' : '(unset)');
  t.equal(report.core.databaseUrl, 'postgres://platform:***@127.0.0.1:5432/platform', 'a URL\'s password is masked');
  t.equal(report.plugins.events.options.maxChainDepth, 5, 'a setting moved onto the options, from the environment through the manifest');
  t.equal(report.plugins.events.options.retentionDays, 30, 'a default');
  t.equal(report.plugins.chat.options.maxConcurrentTurnsPerTenant, 7);
  t.same(report.plugins.webhooks.secrets, { WEBHOOK_SECRET: '***' }, 'a plugin secret that is set');
  t.same(report.plugins.chat.secrets, { LLM_API_KEY: '(unset)' }, 'a plugin secret that is not');
  t.ok(Object.keys(report.plugins).length >= 15, 'every loaded plugin');
  t.notMatch(result.stdout, SECRET);
  t.notMatch(result.stdout, DB_PASSWORD);
  t.notMatch(result.stdout, env.PLATFORM_MASTER_KEY);
});

t.test('for people: one aligned row per setting, secrets redacted', async (t) => {
  const result = await runCli(['config'], { env });
  t.equal(result.code, 0, result.stderr);
  const lines = result.stdout.replace(/\n$/, '').split('\n');
  const cells = (line: string) => line.split(/ {2,}/);
  t.same(cells(lines[0]), ['scope', 'setting', 'value']);
  const row = (scope: string, setting: string) => lines.map(cells).find(([s, name]) => s === scope && name === setting);
  t.same(row('events', 'maxChainDepth'), ['events', 'maxChainDepth', '5']);
  t.same(row('webhooks', 'WEBHOOK_SECRET'), ['webhooks', 'WEBHOOK_SECRET', '***']);
  t.same(row('core', 'masterKey'), ['core', 'masterKey', '***']);
  t.notMatch(result.stdout, SECRET);
  t.notMatch(result.stdout, DB_PASSWORD);
});

t.test('an invalid setting fails as the boot would, with one line', async (t) => {
  const result = await runCli(['config'], { env: { ...env, EVENTS_MAX_CHAIN_DEPTH: '0' } });
  t.equal(result.code, 1);
  t.match(result.stderr, /^error: plugin "events" has an invalid option: .*maxChainDepth.*/);
});
