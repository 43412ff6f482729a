// The caller's own argument check (a definition changed between the
// registry's validation and the call: another process re-synced it) uses the
// platform's RE2-backed validator too: a backtracking pattern such as
// ^(a+)+$ against "aaaa…!" is a prompt 400 through the function-call route,
// not a stalled process.
import t from 'tap';
import pg from 'pg';
import { callFunction, imported, integrationsFixture, startApiServer } from './helpers.ts';

const evil = `${'a'.repeat(48)}!`;

function spec(url: string) {
  return {
    openapi: '3.0.3',
    info: { title: 'Codes', version: '1' },
    servers: [{ url }],
    paths: {
      '/codes/{code}': {
        get: { operationId: 'checkCode', parameters: [{ name: 'code', in: 'path', required: true, schema: { type: 'string' } }], responses: { 200: { description: 'ok' } } },
      },
    },
  };
}

t.test('a definition changed mid-call is checked with linear-time patterns', async (t) => {
  const { tp, token } = await integrationsFixture(t);
  const api = await startApiServer(t);
  await imported(tp, token, { spec: spec(api.url), name: 'codes', prefix: 'codes' });
  // The registry's copy of the definition (no pattern) is cached by this first call.
  t.equal((await callFunction(tp, token, 'codes_check_code', { code: 'aaaa' })).status, 200);

  // Another process re-syncs the function: its schema now has a tenant-written backtracking pattern.
  const client = new pg.Client({ connectionString: tp.databaseUrl });
  await client.connect();
  t.teardown(() => client.end());
  const changed = await client.query(`UPDATE integration_functions
    SET json_schema = jsonb_set(json_schema, '{properties,code,pattern}', '"^(a+)+$"'), version = version + 1
    WHERE name = 'codes_check_code' RETURNING version`);
  t.equal(changed.rowCount, 1);
  // The call's own short-lived row cache (INTEGRATIONS call cache, 2 s by default) lets go of the old row.
  await new Promise((resolve) => setTimeout(resolve, 2_100));

  const refused = await callFunction(tp, token, 'codes_check_code', { code: evil });
  t.equal(refused.status, 400, JSON.stringify(refused.body));
  t.equal(refused.body.code, 'INVALID_ARGUMENTS');
  t.match(refused.body.message, /Invalid arguments for codes_check_code \(its definition changed during the call\): \/code must match pattern "\^\(a\+\)\+\$"/);
  t.equal(api.calls().length, 1, 'only the first call was sent');
});
