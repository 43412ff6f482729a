// Every route of the OpenAPI document, every method, with malformed input:
// NUL and invalid text in each path parameter, huge strings, wrong types,
// malformed query strings, malformed, oversized and wrong-typed JSON bodies,
// invalid UTF-8 bytes. As a tenant admin and as the super-admin. Not one
// answer may be a 5xx.
import t from 'tap';
import { startTestPlatform, tenantWithAdmin } from '../harness.ts';

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  schema?: { type?: string | string[] };
}

interface BodySchema { $ref?: string; properties?: Record<string, { type?: string }> }

interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: BodySchema }> };
}

interface Case {
  method: string;
  url: string;
  payload?: string | Buffer;
  contentType?: string;
  what: string;
}

// What each declared type gets when a parameter is not the one under test.
function filler(type: string | string[] | undefined): string {
  const types = [type ?? []].flat();
  return types.includes('integer') || types.includes('number') ? '987654' : 'sweep-missing';
}

const HUGE = 'x'.repeat(20_000);

/** Path parameter values, as they appear in the URL (already encoded). */
const BAD_PATH_VALUES: [string, string][] = [
  ['NUL', '%00'],
  ['NUL inside', 'a%00b'],
  ['encoded lone surrogate (invalid UTF-8)', '%ED%A0%80'],
  ['invalid UTF-8 byte', '%FF'],
  ['truncated percent escape', '%E0%A4%A'],
  ['huge', HUGE],
  ['negative', '-1'],
  ['beyond int8', '99999999999999999999999'],
  ['fraction', '1.5'],
  ['space', '%20'],
  ['quote', "'%22;--"],
  ['dot segments', '..%2F..%2Fetc'],
  ['unicode', '%E2%98%83'],
];

const BAD_QUERIES: [string, string][] = [
  ['NUL key', '%00=1'],
  ['NUL value', 'q=%00'],
  ['invalid UTF-8', 'q=%FF%FE'],
  ['lone surrogate', 'q=%ED%A0%80'],
  ['bad escape', 'q=%'],
  ['repeated keys', 'limit=1&limit=2&offset=x&offset=y'],
  ['bracket nesting', 'a[b][c]=1&limit[x]=1'],
  ['empty pairs', '&&=&=='],
  ['huge value', `q=${HUGE}`],
];

/**
 * A JSON body one byte past the largest request limit at or near the 1 MiB default (1 MiB + 64 KiB: the webhook
 * receiver's read limit), so that every route with such a limit refuses it unread; routes that take larger bodies
 * (uploads, imports) get a big body within their limit. A Buffer, built once: every request shares it.
 */
const OVERSIZED = Buffer.from(JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 64 * 1024 + 1 - '{"name":""}'.length) }));

/** The body variants that do not depend on a route's schema, built once. */
const FIXED_BODY_VARIANTS: [string, string | Buffer, string?][] = [
  ['truncated JSON', '{"name": "x",'],
  ['array', '[]'],
  ['string', '"text"'],
  ['null', 'null'],
  ['number', '123'],
  ['escaped NUL', '{"name":"a\\u0000b","id":"a\\u0000"}'],
  ['escaped lone surrogate', '{"name":"\\ud800","id":"\\udc00x"}'],
  ['NUL key', '{"a\\u0000":1}'],
  ['invalid UTF-8 bytes', Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}')])],
  ['deep nesting', `${'['.repeat(5000)}${']'.repeat(5000)}`],
  ['deep objects', `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`],
  ['oversized', OVERSIZED],
  ['text/plain', 'name=x', 'text/plain'],
  ['form', 'name=x', 'application/x-www-form-urlencoded'],
];

function bodyVariants(properties: Record<string, { type?: string }>): [string, string | Buffer, string?][] {
  const variants = [...FIXED_BODY_VARIANTS];
  const names = Object.keys(properties);
  if (names.length > 0) {
    for (const [label, value] of [
      ['wrong types', (type?: string) => (type === 'string' ? { nested: [1] } : 'not-a-number')],
      ['NUL strings', () => 'a\u0000b'],
      ['lone surrogates', () => '\ud800'],
      ['huge strings', () => HUGE],
      ['negative numbers', () => -1e308],
      ['nulls', () => null],
      ['big arrays', () => Array.from({ length: 2000 }, () => 'y')],
    ] as [string, (type?: string) => unknown][]) {
      const body = Object.fromEntries(names.map((name) => [name, value(properties[name]?.type)]));
      variants.push([`every property ${label}`, JSON.stringify(body)]);
    }
    // One property at a time, so that joi's rejection of another one does not hide it.
    for (const name of names) {
      variants.push([`${name}: NUL string`, JSON.stringify({ [name]: 'a\u0000b' })]);
      variants.push([`${name}: lone surrogate`, JSON.stringify({ [name]: 'x\udfff' })]);
      variants.push([`${name}: nested NUL`, JSON.stringify({ [name]: { k: ['\u0000'] } })]);
    }
  }
  return variants;
}

function resolveSchema(doc: any, schema: BodySchema | undefined): Record<string, { type?: string }> {
  if (!schema) return {};
  if (schema.$ref) {
    const name = schema.$ref.replace('#/components/schemas/', '');
    return doc.components?.schemas?.[name]?.properties ?? {};
  }
  return schema.properties ?? {};
}

function casesFor(doc: any, path: string, method: string, op: Operation): Case[] {
  const parameters = op.parameters ?? [];
  const pathParams = parameters.filter((p) => p.in === 'path');
  const queryParams = parameters.filter((p) => p.in === 'query');
  const fill = (overrides: Record<string, string>) =>
    path.replace(/\{([^}*]+)\*?\}/g, (_m, name: string) => overrides[name] ?? filler(pathParams.find((p) => p.name === name)?.schema?.type));
  const upper = method.toUpperCase();
  const cases: Case[] = [];
  for (const param of pathParams) {
    for (const [label, value] of BAD_PATH_VALUES) {
      cases.push({ method: upper, url: fill({ [param.name]: value }), what: `path ${param.name}: ${label}` });
    }
  }
  const base = fill({});
  for (const [label, query] of BAD_QUERIES) cases.push({ method: upper, url: `${base}?${query}`, what: `query: ${label}` });
  for (const param of queryParams) {
    for (const [label, value] of [
      ['NUL', '%00'], ['invalid UTF-8', '%FF'], ['huge', HUGE], ['wrong type', [param.schema?.type].flat().includes('string') ? 'a%5B%5D' : 'abc'],
      ['negative', '-99999999999999999999'], ['fraction', '0.5'], ['empty', ''],
    ]) {
      cases.push({ method: upper, url: `${base}?${param.name}=${value}`, what: `query ${param.name}: ${label}` });
    }
  }
  if (upper !== 'GET' && upper !== 'HEAD') {
    const body = op.requestBody?.content?.['application/json']?.schema;
    for (const [label, payload, contentType] of bodyVariants(resolveSchema(doc, body))) {
      cases.push({ method: upper, url: base, payload, contentType: contentType ?? 'application/json', what: `body: ${label}` });
    }
  }
  return cases;
}

/** Streams (SSE) never end on their own: a request still open after this is left, not a failure. */
const CASE_TIMEOUT_MS = 10_000;

t.test('no route answers malformed input with a 5xx', async (t) => {
  // WEBHOOK_SECRET, PATTERN_*_SECRET: without them the event receiver and the pattern registry answer 503 by
  // design (a deployment not set up), not input-related.
  const tp = await startTestPlatform(t, { env: {
    INTEGRATIONS_CALL_TIMEOUT_MS: '2000', WEBHOOK_SECRET: 'sweep-webhook-secret', PATTERN_ADMIN_SECRET: 'sweep-pattern-admin', PATTERN_WEBHOOK_SECRET: 'sweep-pattern-webhook',
  } });
  const tenant = await tenantWithAdmin(tp, 'sweep');
  const docs = await tp.request({ url: '/docs/openapi.json' });
  t.equal(docs.status, 200);
  const doc = docs.body;

  const all: Case[] = [];
  for (const [path, methods] of Object.entries<Record<string, Operation>>(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      all.push(...casesFor(doc, path, method, op));
    }
  }
  // GraphQL is the one API route outside the OpenAPI document.
  all.push(...casesFor(doc, '/graphql', 'post', { requestBody: { content: { 'application/json': { schema: { properties: { query: { type: 'string' }, variables: { type: 'object' } } } } } } }));
  all.push(...casesFor(doc, '/graphql', 'get', { parameters: [{ name: 'query', in: 'query', schema: { type: 'string' } }] }));
  t.ok(all.length > 500, `${all.length} cases over ${Object.keys(doc.paths).length} paths`);

  const principals = [
    { name: 'tenant admin', headers: { authorization: `Bearer ${tenant.token}`, 'x-tenant-id': tenant.alias } },
    { name: 'super-admin', headers: { authorization: `Bearer ${tp.adminToken}`, 'x-tenant-id': tenant.alias } },
  ];
  const failures: string[] = [];
  let timedOut = 0;
  let sent = 0;
  const run = async (principal: (typeof principals)[number], c: Case) => {
    const headers: Record<string, string> = { ...principal.headers };
    if (c.contentType) headers['content-type'] = c.contentType;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const response = await Promise.race([
      tp.platform.server.inject({ method: c.method, url: c.url, headers, payload: c.payload }),
      new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), CASE_TIMEOUT_MS);
      }),
    ]).finally(() => clearTimeout(timer));
    sent++;
    if (!response) {
      timedOut++;
      return;
    }
    if (response.statusCode >= 500) {
      const shown = c.url.length > 160 ? `${c.url.slice(0, 160)}…` : c.url;
      failures.push(`${response.statusCode} ${c.method} ${shown} [${c.what}] as ${principal.name}: ${response.payload.slice(0, 200)}`);
    }
  };
  for (const principal of principals) {
    // A few at a time: the database pool, not the sweep, should be the limit.
    for (let i = 0; i < all.length; i += 8) {
      await Promise.all(all.slice(i, i + 8).map((c) => run(principal, c)));
    }
  }
  // Malformed credentials and tenant headers, once per route and method (no principal: they replace it).
  const badHeaders: [string, Record<string, string>][] = [
    ['malformed JWT', { authorization: 'Bearer a.b.c' }],
    ['JWT of garbage', { authorization: `Bearer ${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('[]').toString('base64url')}.` }],
    ['huge bearer', { authorization: `Bearer ${HUGE}` }],
    ['huge API key', { 'x-api-key': HUGE }],
    ['API key with NUL', { 'x-api-key': 'ak_\u0000' }],
    ['malformed tenant header', { authorization: `Bearer ${tenant.token}`, 'x-tenant-id': '../x\u0000' }],
    ['huge tenant header', { authorization: `Bearer ${tp.adminToken}`, 'x-tenant-id': HUGE }],
  ];
  for (const [path, methods] of Object.entries<Record<string, unknown>>(doc.paths)) {
    const url = path.replace(/\{[^}]+\}/g, 'sweep-missing');
    for (const method of Object.keys(methods)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      await Promise.all(badHeaders.map(([label, headers]) =>
        run({ name: `headers: ${label}`, headers } as never, { method: method.toUpperCase(), url, what: label })));
    }
  }
  t.comment(`${sent} requests, ${timedOut} still open after ${CASE_TIMEOUT_MS} ms (streams)`);
  if (failures.length) t.comment(failures.join('\n'));
  t.equal(failures.length, 0, `no 5xx answers (${failures.length} found)`);
});

t.test('the reported NUL cases are 400s naming the field', async (t) => {
  const tp = await startTestPlatform(t, { env: { WEBHOOK_SECRET: 'nul-webhook-secret' } });
  const tenant = await tenantWithAdmin(tp, 'nul');
  const call = await tp.request({ method: 'POST', url: '/api/admin/functions/%00/call', token: tenant.token, payload: {} });
  t.equal(call.status, 400);
  t.equal(call.body.code, 'INVALID_TEXT');
  t.same(call.body.fields, ['params.name']);
  const tokens = await tp.request({ method: 'POST', url: '/api/admin/users/%00/tokens', token: tp.adminToken });
  t.equal(tokens.status, 400);
  t.equal(tokens.body.code, 'INVALID_TEXT');
  const custom = await tp.request({ method: 'DELETE', url: '/api/admin/triggers/events/types/custom/%00', token: tenant.token });
  t.equal(custom.status, 400);
  const body = await tp.request({
    method: 'POST', url: '/api/admin/clients', token: tenant.token,
    payload: '{"name":"web\\u0000"}', headers: { 'content-type': 'application/json' },
  });
  t.equal(body.status, 400);
  t.same(body.body.fields, ['payload.name']);
  const surrogate = await tp.request({
    method: 'POST', url: '/api/admin/clients', token: tenant.token,
    payload: '{"name":"web","metadata":{"k":"\\ud800"}}', headers: { 'content-type': 'application/json' },
  });
  t.equal(surrogate.status, 400);
  t.equal(surrogate.body.code, 'INVALID_TEXT');
  const query = await tp.request({ url: '/api/admin/clients?name=%00', token: tenant.token });
  t.equal(query.status, 400);
  t.same(query.body.fields, ['query.name']);
  const listed = await tp.request({ url: '/api/admin/clients', token: tenant.token });
  t.same(listed.body.items.map((c: { name: string }) => c.name), ['default'], 'nothing was created (the tenant has only its default client)');
  // Routes that read their body raw (parse: false) and parse the JSON themselves, past their own checks.
  for (const body of ['{"a":"x\\u0000"}', '{"a":"\\udc00"}']) {
    const received = await tp.request({
      method: 'POST', url: '/api/webhooks/events/nul/hook', payload: body,
      headers: { 'content-type': 'application/json', 'x-webhook-secret': 'nul-webhook-secret' },
    });
    t.equal(received.status, 400, `a raw JSON body ${body} is refused: ${JSON.stringify(received.body)}`);
    t.equal(received.body.code, 'INVALID_TEXT');
  }
});
