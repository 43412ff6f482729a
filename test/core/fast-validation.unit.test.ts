// The compiled params and query checks (core/http/fast-validation.ts): what
// they accept joi accepts, converted the same way; what they are unsure of
// still gets joi's answer and error, through a real hapi server; schemas of
// any other kind are left to joi; the OpenAPI document still reads the schema.
import t from 'tap';
import Hapi from '@hapi/hapi';
import Joi, { type Schema } from 'joi';
import { compileParameterValidation, compileSimpleObject, joiSchemaOf } from '../../core/http/fast-validation.ts';
import { buildDocument } from '../../core/http/openapi/document.ts';

const uuid = '3f2504e0-4f89-11d3-9a0c-0305e82c3301';

// The shapes routes use, and values around their edges.
const cases: { name: string; schema: Schema; values: Record<string, unknown>[] }[] = [
  {
    name: 'integer id',
    schema: Joi.object({ id: Joi.number().integer().min(1).max(2147483647).required() }),
    values: [{ id: '1' }, { id: '2147483647' }, { id: '2147483648' }, { id: '0' }, { id: '01' }, { id: '-1' }, { id: '1.5' }, { id: '1e3' },
      { id: ' 7' }, { id: '' }, { id: 'x' }, { id: '99999999999999999999' }, {}, { id: '5', extra: '1' }, { id: ['1', '2'] }],
  },
  {
    name: 'uuid',
    schema: Joi.object({ session_id: Joi.string().guid().required().description('A UUID') }),
    values: [{ session_id: uuid }, { session_id: uuid.toUpperCase() }, { session_id: `{${uuid}}` }, { session_id: uuid.replaceAll('-', '') },
      { session_id: `${uuid}x` }, { session_id: '' }, { session_id: 'not-a-uuid' }, {}],
  },
  {
    name: 'patterns and lengths',
    schema: Joi.object({
      tenant_id: Joi.string().max(64).required(),
      name: Joi.string().max(100).pattern(/^[a-z0-9]+(-[a-z0-9]+)*$/).required(),
      path: Joi.string().min(3).max(8),
    }),
    values: [{ tenant_id: 'acme', name: 'a-b' }, { tenant_id: 'x'.repeat(65), name: 'a' }, { tenant_id: 'acme', name: 'A' },
      { tenant_id: 'acme', name: 'a--b' }, { tenant_id: '', name: 'a' }, { tenant_id: 'acme', name: 'a', path: 'ab' },
      { tenant_id: 'acme', name: 'a', path: 'abcdefgh' }, { tenant_id: 'acme', name: 'a', path: 'abcdefghi' }, { tenant_id: 'acme', name: 'a\u0000' }],
  },
  {
    name: 'query with defaults',
    schema: Joi.object({
      skip: Joi.number().integer().min(0).max(1000000).default(0),
      limit: Joi.number().integer().min(1).max(500).default(50),
      archived: Joi.boolean().default(false),
    }),
    values: [{}, { skip: '10' }, { limit: '500' }, { limit: '501' }, { limit: '0' }, { archived: 'true' }, { archived: 'TRUE' }, { archived: 'yes' },
      { skip: '1', limit: '2', archived: 'false' }, { other: '1' }],
  },
];

async function joiAnswer(schema: Schema, value: unknown): Promise<{ ok: true; value: unknown } | { ok: false }> {
  try {
    return { ok: true, value: await schema.validateAsync(value, { abortEarly: false }) };
  } catch {
    return { ok: false };
  }
}

t.test('what the compiled check accepts, joi accepts with the same value', async (t) => {
  for (const { name, schema, values } of cases) {
    const check = compileSimpleObject(schema);
    t.ok(check, `${name}: compiled`);
    let fast = 0;
    for (const value of values) {
      const answer = check!(value);
      if (answer === undefined) continue;
      fast++;
      const joi = await joiAnswer(schema, value);
      t.ok(joi.ok, `${name}: joi accepts ${JSON.stringify(value)} too`);
      if (joi.ok) t.same(answer, joi.value, `${name}: same value for ${JSON.stringify(value)}`);
    }
    t.ok(fast > 0, `${name}: the ordinary values are settled without joi (${fast} of ${values.length})`);
  }
  t.same(compileSimpleObject(cases[0].schema)!({ id: '42' }), { id: 42 }, 'the id becomes a number');
  t.same(compileSimpleObject(cases[3].schema)!({}), { skip: 0, limit: 50, archived: false }, 'defaults filled in');
});

t.test('schemas of another kind are left to joi', async (t) => {
  const others = {
    'an allow list': Joi.object({ kind: Joi.string().valid('a', 'b').required() }),
    'unknown keys allowed': Joi.object({ id: Joi.number() }).unknown(true),
    'a date': Joi.object({ since: Joi.date().iso() }),
    'alternatives': Joi.object({ client: Joi.alternatives(Joi.number(), Joi.string()) }),
    'a trimmed string': Joi.object({ q: Joi.string().trim().max(10) }),
    'a uuid of one version': Joi.object({ id: Joi.string().guid({ version: 'uuidv4' }) }),
    'a reference': Joi.object({ a: Joi.number(), b: Joi.number().min(Joi.ref('a')) }),
    'an empty string allowed': Joi.object({ q: Joi.string().allow('') }),
    'an array': Joi.object({ state: Joi.array().items(Joi.string()).single() }),
    'own preferences': Joi.object({ id: Joi.number() }).options({ convert: false }),
    'not an object': Joi.string(),
  };
  for (const [name, schema] of Object.entries(others)) t.equal(compileSimpleObject(schema), undefined, name);
});

t.test('through hapi: accepted values reach the handler converted, refusals are joi\'s, the OpenAPI reads the schema', async (t) => {
  const server = Hapi.server();
  server.validator(Joi);
  const failures: unknown[] = [];
  server.route({
    method: 'GET', path: '/things/{id}',
    options: {
      tags: ['api'], description: 'Read a thing',
      validate: {
        params: Joi.object({ id: Joi.number().integer().min(1).required() }),
        query: Joi.object({ limit: Joi.number().integer().min(1).max(5).default(2) }),
        options: { abortEarly: false },
        failAction: (_request, _h, err) => {
          failures.push((err as Error).message);
          throw err;
        },
      },
    },
    handler: (request) => ({ params: request.params, query: request.query }),
  });
  server.route({
    method: 'GET', path: '/own-options/{id}',
    options: { validate: { params: Joi.object({ id: Joi.number() }), options: { convert: false } } },
    handler: () => 'ok',
  });
  t.equal(compileParameterValidation(server), 2, 'params and query of the first route; not the route with its own options');
  const route = server.table().find((r) => r.path === '/things/{id}')!;
  t.equal(typeof route.settings.validate!.params, 'function');
  t.ok(Joi.isSchema(joiSchemaOf(route.settings.validate!.params)), 'the schema stays readable');

  const ok = await server.inject('/things/7?limit=3');
  t.equal(ok.statusCode, 200);
  t.same(JSON.parse(ok.payload), { params: { id: 7 }, query: { limit: 3 } });
  t.same(JSON.parse((await server.inject('/things/7')).payload).query, { limit: 2 }, 'default applied');
  t.same(JSON.parse((await server.inject('/things/007')).payload).params, { id: 7 }, 'joi still takes what the check leaves to it');

  const refused = await server.inject('/things/0?limit=9');
  t.equal(refused.statusCode, 400);
  t.match(failures.at(-1), /"id" must be greater than or equal to 1/, 'joi\'s own message');
  t.equal((await server.inject('/things/1?limit=9')).statusCode, 400, 'a bad query value refused');
  t.match(failures.at(-1), /"limit" must be less than or equal to 5/);

  const document = buildDocument(server.table(), { title: 'X', version: '1', pluginTags: [] }) as { paths: Record<string, { get: { parameters: { name: string; in: string }[] } }> };
  const parameters = document.paths['/things/{id}'].get.parameters.map((p) => `${p.in}:${p.name}`);
  t.ok(parameters.includes('path:id') && parameters.includes('query:limit'), `the OpenAPI document lists ${parameters.join(', ')}`);
});
