// `${VAR}` placeholders in an imported spec's auth value:
// only the variables the operator allows (INTEGRATIONS_ENV_ALLOWLIST, default
// INTEGRATION_*) resolve, never the platform's own settings even when
// allowed; a refused variable and a missing one get the same 422 and no
// request; an auth value that can never resolve is refused at import,
// re-import and re-sync. The attacker's server is a real loopback listener.
import { readFile } from 'node:fs/promises';
import t from 'tap';
import { petstore } from '../../../test/fixtures/integrations/specs.ts';
import type { Tap, TestPlatform } from 'agent-platform/sdk/testing';
import { bindingOf } from '../sealing/origin-binding.ts';
import { sealContext } from '../sealing/sealing.ts';
import { callFunction, imported, importSpec, integrationsFixture, startApiServer, startIntegrationsPlatform, type ApiServer } from './helpers.ts';
import { restart, secretBoxOf, superuser } from './stored-rows.ts';

/** Every secret the deployment holds, as the attacker's listener would see it. */
function leaked(tp: TestPlatform, listener: ApiServer, names: string[]): string[] {
  const wire = JSON.stringify(listener.requests.map((r) => ({ headers: r.headers, search: r.search, body: r.rawBody, path: r.path })));
  return names.filter((name) => tp.env[name] && wire.includes(tp.env[name]!));
}

const PLATFORM_SECRETS = ['ADMIN_TOKEN', 'PLATFORM_MASTER_KEY', 'SERVICE_JWT_SECRET', 'DATABASE_URL', 'LLM_API_KEY', 'METRICS_TOKEN'];

/**
 * Gives spec `name` the auth value `value` as a row sealed without the origin
 * in its associated data (its origin recorded by migration 0061), unchecked
 * against the allowlist: a stored value the import check never saw.
 */
async function storeAuthValueAsBefore(t: Tap, tp: TestPlatform, tenant: string, name: string, value: string) {
  const db = await superuser(t, tp);
  const { rows } = await db.query('SELECT id, base_url, auth FROM integration_specs WHERE tenant_id = $1 AND name = $2', [tenant, name]);
  const spec = rows[0];
  await db.query('UPDATE integration_specs SET auth_value_sealed = $1, auth_value_origin = $2 WHERE id = $3', [
    secretBoxOf(tp).seal(value, sealContext.specAuth(tenant, spec.id)), bindingOf(spec), spec.id,
  ]);
}

t.test('the attack: an inline spec on a host the tenant admin controls gets no platform secret', async (t) => {
  const { tp, token, tenant } = await integrationsFixture(t, {
    // Even an operator who allowlists them by name or by pattern does not give them out.
    env: { INTEGRATIONS_ENV_ALLOWLIST: 'INTEGRATION_*,ADMIN_TOKEN,PLATFORM_*,SERVICE_JWT_SECRET,DATABASE_URL,LLM_*,METRICS_TOKEN', LLM_API_KEY: 'sk-llm-secret', METRICS_TOKEN: 'metrics-secret' },
  });
  const attacker = await startApiServer(t);
  for (const name of PLATFORM_SECRETS) {
    for (const dryRun of [true, false]) {
      const response = await importSpec(tp, token, { spec: petstore(attacker.url), name: 'exfil', prefix: 'ex', auth_value: `\${${name}}`, dry_run: dryRun });
      t.equal(response.status, 400, `\${${name}} is refused at import (dry_run ${dryRun})`);
      t.equal(response.body.code, 'AUTH_VARIABLE_NOT_ALLOWED');
      t.match(response.body.message, /platform's own settings/);
    }
    // What the attacker does next: call the function, whose request goes to their listener.
    const call = await callFunction(tp, token, 'ex_list_pets');
    t.equal(call.status, 404, 'there is no function to call');
  }
  t.equal((await tp.request({ url: '/api/admin/integrations/specs', token })).body.total, 0, 'nothing was imported');
  t.same(leaked(tp, attacker, PLATFORM_SECRETS), [], 'the listener received no secret of the platform');

  // Specs stored unchecked with ${ADMIN_TOKEN} (and the others) in their auth value: the call sends nothing.
  for (const [i, name] of PLATFORM_SECRETS.entries()) {
    await imported(tp, token, { spec: petstore(attacker.url), name: `exfil${i}`, prefix: `ex${i}`, auth_value: 'placeholder' });
    await storeAuthValueAsBefore(t, tp, tenant, `exfil${i}`, `Bearer \${${name}}`);
    const call = await callFunction(tp, token, `ex${i}_list_pets`);
    t.equal(call.status, 422, `a stored \${${name}} does not resolve`);
    t.equal(call.body.code, 'AUTH_VARIABLE_MISSING');
    t.match(call.body.message, `\${${name}}`);
  }
  t.same(attacker.requests, [], 'the attacker\'s listener received no request at all');
  t.same(leaked(tp, attacker, PLATFORM_SECRETS), [], 'and no secret of the platform');
  t.ok(tp.env.ADMIN_TOKEN && tp.env.PLATFORM_MASTER_KEY, 'the secrets exist in the deployment\'s environment');
});

t.test('allowed variables resolve: INTEGRATION_* by default, or the operator\'s names and PREFIX_* patterns', async (t) => {
  const byDefault = await integrationsFixture(t, { env: { INTEGRATION_FOO: 'foo-1', OTHER_VALUE: 'other-1' } });
  const api = await startApiServer(t);
  await imported(byDefault.tp, byDefault.token, { spec: petstore(api.url), name: 'pets', prefix: 'pet', auth_value: 'k-${INTEGRATION_FOO}' });
  const call = await callFunction(byDefault.tp, byDefault.token, 'pet_list_pets');
  t.equal(call.status, 200);
  t.equal(api.calls().at(-1)!.headers['x-api-key'], 'k-foo-1', 'INTEGRATION_FOO resolves under the default allowlist');
  const outside = await importSpec(byDefault.tp, byDefault.token, { spec: petstore(api.url), name: 'other', auth_value: '${OTHER_VALUE}' });
  t.equal(outside.status, 400, 'a variable outside the default allowlist is refused at import');
  t.equal(outside.body.code, 'AUTH_VARIABLE_NOT_ALLOWED');
  t.match(outside.body.message, /INTEGRATIONS_ENV_ALLOWLIST/);
  t.notMatch(outside.body.message, /other-1/);

  const configured = await integrationsFixture(t, {
    env: { INTEGRATIONS_ENV_ALLOWLIST: 'ACME_*, EXACT_NAME', ACME_PETS: 'acme-1', EXACT_NAME: 'exact-1', EXACT_NAME_2: 'x', INTEGRATION_FOO: 'foo-1', ACMEPETS: 'y' },
  });
  const { tp, token } = configured;
  await imported(tp, token, { spec: petstore(api.url), name: 'pets', prefix: 'pet', auth_value: '${ACME_PETS}/${EXACT_NAME}' });
  await callFunction(tp, token, 'pet_list_pets');
  t.equal(api.calls().at(-1)!.headers['x-api-key'], 'acme-1/exact-1', 'a PREFIX_* pattern and an exact name resolve');
  for (const name of ['EXACT_NAME_2', 'INTEGRATION_FOO', 'ACMEPETS']) {
    const refused = await importSpec(tp, token, { spec: petstore(api.url), name: 'more', auth_value: `\${${name}}` });
    t.equal(refused.status, 400, `\${${name}} is not allowed by "ACME_*, EXACT_NAME"`);
  }
});

t.test('platform settings are denied even when allowlisted', async (t) => {
  const { tp, token } = await integrationsFixture(t, {
    env: {
      INTEGRATIONS_ENV_ALLOWLIST: 'PLATFORM_MASTER_KEY,ADMIN_TOKEN,ACME_*,INTEGRATION_*',
      ACME_CLIENT_SECRET: 's', ACME_DB_PASSWORD: 'p', INTEGRATION_API_KEY: 'k', INTEGRATION_GH_TOKEN: 't', ACME_URL: 'fine',
    },
  });
  const api = await startApiServer(t);
  for (const name of ['PLATFORM_MASTER_KEY', 'ADMIN_TOKEN', 'ACME_CLIENT_SECRET', 'ACME_DB_PASSWORD', 'admin_token']) {
    const refused = await importSpec(tp, token, { spec: petstore(api.url), name: 'pets', auth_value: `x \${${name}}`, dry_run: false });
    t.equal(refused.status, 400, `\${${name}} is refused although the allowlist names it`);
    t.equal(refused.body.code, 'AUTH_VARIABLE_NOT_ALLOWED');
    t.match(refused.body.message, new RegExp(`\\$\\{${name}\\} can never be resolved: the platform's own settings`));
  }
  t.same(api.requests, [], 'nothing was sent anywhere');
  await imported(tp, token, { spec: petstore(api.url), name: 'pets', prefix: 'pet', auth_value: '${ACME_URL}' });
  await callFunction(tp, token, 'pet_list_pets');
  t.equal(api.calls().at(-1)!.headers['x-api-key'], 'fine', 'an allowed name of the same prefix resolves');
  // INTEGRATION_* is the namespace meant for tenants' APIs: secret-like names resolve there.
  await imported(tp, token, { spec: petstore(api.url), name: 'gh', prefix: 'gh', auth_value: '${INTEGRATION_GH_TOKEN}' });
  await callFunction(tp, token, 'gh_list_pets');
  t.equal(api.calls().at(-1)!.headers['x-api-key'], 't', 'INTEGRATION_GH_TOKEN resolves');
});

t.test('a refused variable and a missing one give the same 422, and no request', async (t) => {
  // The same name, missing in one deployment and present but refused in the next.
  const first = await integrationsFixture(t, { env: { INTEGRATIONS_ENV_ALLOWLIST: 'LEGACY_*', LEGACY_VALUE: undefined } });
  const api = await startApiServer(t);
  api.serve('/openapi.json', petstore(api.url));
  const done = await imported(first.tp, first.token, { source: `${api.url}/openapi.json`, name: 'pets', prefix: 'pet', auth_value: '${LEGACY_VALUE}' });
  const missing = await callFunction(first.tp, first.token, 'pet_list_pets');
  t.equal(missing.status, 422);

  const second = await restart(t, first.tp, { LEGACY_VALUE: 'present-and-secret' });
  const refused = await callFunction(second, first.token, 'pet_list_pets');
  t.equal(refused.status, 422);
  t.same(refused.body, missing.body, 'byte for byte the same answer: nothing tells whether the variable exists');
  t.same(refused.body, {
    statusCode: 422, error: 'Unprocessable Entity', code: 'AUTH_VARIABLE_MISSING',
    message: 'The auth value of "pets" refers to ${LEGACY_VALUE}, which does not resolve in this deployment (unset, or not a variable the operator allows); no request was sent',
  });

  // A platform secret stored unchecked, and an allowed name that is unset: the same shape.
  await imported(second, first.token, { spec: petstore(api.url), name: 'other', prefix: 'oth', auth_value: '${INTEGRATION_ABSENT}' });
  await imported(second, first.token, { spec: petstore(api.url), name: 'third', prefix: 'thd', auth_value: 'placeholder' });
  await storeAuthValueAsBefore(t, second, first.tenant, 'third', '${PLATFORM_MASTER_KEY}');
  const absent = await callFunction(second, first.token, 'oth_list_pets');
  const denied = await callFunction(second, first.token, 'thd_list_pets');
  t.match(denied.body.message, /PLATFORM_MASTER_KEY/, 'the stored value was read');
  t.equal(denied.status, absent.status);
  const shape = (body: Record<string, string>, name: string, spec: string) => ({ ...body, message: body.message.replace(name, 'X').replace(spec, 'S') });
  t.same(shape(denied.body, 'PLATFORM_MASTER_KEY', 'third'), shape(absent.body, 'INTEGRATION_ABSENT', 'other'), 'the same code and message shape');
  t.same(api.calls(), [], 'no request was sent for any of them');

  // The stored value can no longer resolve: a re-sync and a re-import that keeps it are refused (400) and change nothing.
  const sync = await second.request({ method: 'POST', url: `/api/admin/integrations/specs/${done.spec.id}/sync?force=true`, token: first.token });
  t.equal(sync.status, 400);
  t.equal(sync.body.code, 'AUTH_VARIABLE_NOT_ALLOWED');
  t.match(sync.body.message, /stored auth_value.*\$\{LEGACY_VALUE\}.*INTEGRATIONS_ENV_ALLOWLIST/);
  t.notMatch(sync.body.message, /present-and-secret/);
  const reimport = await importSpec(second, first.token, { source: `${api.url}/openapi.json`, name: 'pets', prefix: 'pet', dry_run: false });
  t.equal(reimport.status, 400);
  t.equal(reimport.body.code, 'AUTH_VARIABLE_NOT_ALLOWED');
  const spec = await second.request({ url: `/api/admin/integrations/specs/${done.spec.id}`, token: first.token });
  t.equal(spec.body.version, done.spec.version, 'the spec is unchanged');
  t.equal(spec.body.status, 'active');
  const replaced = await imported(second, first.token, { source: `${api.url}/openapi.json`, name: 'pets', prefix: 'pet', auth_value: 'plain-value' });
  t.equal(replaced.spec.auth.value_set, true);
  await callFunction(second, first.token, 'pet_list_pets');
  t.equal(api.calls().at(-1)!.headers['x-api-key'], 'plain-value', 'a re-import with a new auth_value works again');
});

t.test('every variable of the README\'s configuration table is denied, even when allowlisted', async (t) => {
  const readme = await readFile(new URL('../../../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('\n## ', readme.indexOf('## Configuration') + 1));
  const names = [...new Set(section.split('\n').filter((line) => line.startsWith('| `'))
    .flatMap((line) => [...line.split('|')[1].matchAll(/`([A-Z][A-Z0-9_]*\*?)`/g)].map((m) => m[1])))];
  t.ok(names.length >= 40, `the table lists the platform's variables (${names.length})`);
  t.ok(names.includes('INTEGRATIONS_ENV_ALLOWLIST'), 'this setting itself is in the table');
  // A pattern row (INGESTION_*) stands for every name under it.
  const concrete = names.map((name) => name.replace(/\*$/, 'CHUNK_SIZE'));
  const { tp, token } = await integrationsFixture(t, { env: { INTEGRATIONS_ENV_ALLOWLIST: names.join(',') } });
  const api = await startApiServer(t);
  const allowedAnyway: string[] = [];
  for (const name of concrete) {
    const response = await importSpec(tp, token, { spec: petstore(api.url), name: 'probe', auth_value: `\${${name}}` });
    if (response.status !== 400 || !/platform's own settings/.test(response.body.message)) allowedAnyway.push(name);
  }
  t.same(allowedAnyway, [], 'no README variable resolves (add new settings to plugins/integrations/env/platform-settings.ts)');
});

t.test('a malformed INTEGRATIONS_ENV_ALLOWLIST fails the boot with one line', async (t) => {
  await t.rejects(startIntegrationsPlatform(t, { env: { INTEGRATIONS_ENV_ALLOWLIST: 'INTEGRATION_*,*' } }), {
    message: 'INTEGRATIONS_ENV_ALLOWLIST: "*" is neither a variable name nor a PREFIX_* pattern (a pattern needs a prefix)',
  });
});
