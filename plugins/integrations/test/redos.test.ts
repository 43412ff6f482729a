// Tenant-written patterns in an import: a parameter's JSON
// Schema `pattern` is checked on a linear-time engine (a backtracking pattern
// such as ^(a+)+$ against "aaaa…!" is a prompt 400, not a stalled process), a
// pattern that engine cannot run is dropped at import, and path globs with
// many `**` against a long path template are matched in linear time.
import t from 'tap';
import { callFunction, importSpec, imported, integrationsFixture, startApiServer } from './helpers.ts';

const evil = `${'a'.repeat(40)}!`;
const longPath = `/${'a/'.repeat(3000)}b`;

function spec(url: string) {
  return {
    openapi: '3.0.3',
    info: { title: 'Codes', version: '1' },
    servers: [{ url }],
    paths: {
      '/codes/{code}': {
        get: {
          operationId: 'checkCode',
          parameters: [
            { name: 'code', in: 'path', required: true, schema: { type: 'string', pattern: '^(a+)+$' } },
            { name: 'pair', in: 'query', schema: { type: 'string', pattern: '^(x)\\1$' } },
          ],
          responses: { 200: { description: 'ok' } },
        },
      },
      [longPath]: { get: { operationId: 'deep', responses: { 200: { description: 'ok' } } } },
    },
  };
}

t.test('a backtracking parameter pattern is checked in linear time: a prompt 400, the process keeps answering', async (t) => {
  const { tp, token } = await integrationsFixture(t);
  const api = await startApiServer(t);
  await imported(tp, token, { spec: spec(api.url), name: 'codes', prefix: 'codes' });

  const refused = await callFunction(tp, token, 'codes_check_code', { code: evil });
  t.equal(refused.status, 400, JSON.stringify(refused.body));
  t.equal(refused.body.code, 'INVALID_ARGUMENTS');
  t.match(refused.body.message, /argument "code" must match pattern "\^\(a\+\)\+\$"/);
  t.equal(api.calls().length, 0, 'nothing was sent');

  const accepted = await callFunction(tp, token, 'codes_check_code', { code: 'aaaa', pair: 'anything' });
  t.equal(accepted.status, 200, JSON.stringify(accepted.body));
  t.equal(api.calls().at(-1)!.path, '/codes/aaaa');

  // The backreference cannot run in linear time: dropped at import, so the argument schema shows no pattern.
  const described = await tp.request({ url: '/api/admin/integrations/functions/codes_check_code', token });
  t.equal(described.status, 200);
  t.same(JSON.stringify(described.body).includes('\\\\1'), false, 'the backreference pattern is not kept');
  t.match(JSON.stringify(described.body), /\^\(a\+\)\+\$/, 'the linear-safe pattern is kept');
});

t.test('path globs with many ** against a long path template match in linear time; an over-long glob is a 400', async (t) => {
  const { tp, token } = await integrationsFixture(t);
  const api = await startApiServer(t);
  const source = spec(api.url);
  const glob = '/**/**/**/**/**/**/**/**/c';
  const excluded = await importSpec(tp, token, { spec: source, name: 'codes', prefix: 'codes', include_paths: [glob, '/codes/*'] });
  t.equal(excluded.status, 200, JSON.stringify(excluded.body).slice(0, 500));
  t.same(excluded.body.functions.map((f: { name: string }) => f.name), ['codes_check_code']);
  t.match(excluded.body.skipped, [{ operation: `GET ${longPath}`, reason: 'not included' }]);
  const deep = await importSpec(tp, token, { spec: source, name: 'codes', prefix: 'codes', include_paths: ['/**/**/**/**/**/b'] });
  t.same(deep.body.functions.map((f: { name: string }) => f.name), ['codes_deep']);

  const tooLong = await importSpec(tp, token, { spec: source, name: 'codes', prefix: 'codes', include_paths: `/${'x'.repeat(600)}` });
  t.equal(tooLong.status, 400);
  t.match(tooLong.body.message, /a path glob may be at most 500 characters \(one has 601\)/);
});
