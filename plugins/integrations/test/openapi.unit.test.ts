// The pure parts of an OpenAPI import (openapi/): reading and recognizing a
// document, the base URL, the operation filters, function names and the
// schema conversion. No server, no database: the import through HTTP is
// import.test.ts's and formats.test.ts's.
import t from 'tap';
import { describeDocument, detectFormat, parseDocumentText } from '../openapi/document.ts';
import { applyFilters, globToRegExp, MAX_GLOB_LENGTH } from '../openapi/filters.ts';
import { FUNCTION_NAME, nameOperations, normalizePrefix, snakeCase } from '../openapi/naming.ts';
import { toJsonSchema } from '../openapi/schema.ts';
import { baseUrlOf } from '../openapi/servers.ts';

const outputOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return { message: (err as Error).message, ...(err as { output?: { statusCode: number; payload: { code?: string } } }).output };
  }
  return undefined;
};

t.test('parseDocumentText: JSON or YAML (BOM and leading space ignored); anything else is a 400 SPEC_INVALID', async (t) => {
  t.same(parseDocumentText('\uFEFF  {"openapi": "3.0.3"}'), { openapi: '3.0.3' });
  t.same(parseDocumentText('openapi: 3.1.0\ninfo:\n  title: Pets\n'), { openapi: '3.1.0', info: { title: 'Pets' } });
  t.same(parseDocumentText('base: &b {a: 1}\nmerged:\n  <<: *b\n  c: 2\n'), { base: { a: 1 }, merged: { a: 1, c: 2 } }, 'YAML merge keys');
  t.match(outputOf(() => parseDocumentText('  \n')), { message: 'The OpenAPI document is empty', statusCode: 400, payload: { code: 'SPEC_INVALID' } });
  t.match(outputOf(() => parseDocumentText('{"openapi": ')), { message: /^The OpenAPI document is neither valid JSON nor YAML: /, payload: { code: 'SPEC_INVALID' } });
  t.match(outputOf(() => parseDocumentText('- a\n- b')), { message: 'The OpenAPI document must be an object', payload: { code: 'SPEC_INVALID' } });
  t.match(outputOf(() => parseDocumentText('just text')), { message: 'The OpenAPI document must be an object' });
});

t.test('detectFormat: Swagger 2.0, OpenAPI 3.0.x and 3.1.x; other versions are SPEC_UNSUPPORTED', async (t) => {
  t.equal(detectFormat({ swagger: '2.0' }), 'swagger-2.0');
  t.equal(detectFormat({ openapi: '3.0.3' }), 'openapi-3.0');
  t.equal(detectFormat({ openapi: '3.1.0' }), 'openapi-3.1');
  t.match(outputOf(() => detectFormat({ swagger: '1.2' })), { message: 'Unsupported Swagger version "1.2": only 2.0 is supported', payload: { code: 'SPEC_UNSUPPORTED' } });
  t.match(outputOf(() => detectFormat({ openapi: '3.2' })), { message: 'Unsupported OpenAPI version 3.2: 3.0.x and 3.1.x are supported', payload: { code: 'SPEC_UNSUPPORTED' } });
  t.equal(detectFormat(parseDocumentText('swagger: 2.0\ninfo: {title: t, version: 1}\npaths: {}\n')), 'swagger-2.0', 'an unquoted YAML `swagger: 2.0` (the number 2)');
  t.equal(parseDocumentText('swagger: 2.0\n').swagger, '2.0');
  t.equal(detectFormat(parseDocumentText('openapi: 3.1\npaths: {}\n')), 'openapi-3.1', 'an unquoted `openapi: 3.1`, read as 3.1.0');
  t.equal(parseDocumentText('openapi: 3.0\n').openapi, '3.0.0');
  t.match(outputOf(() => detectFormat(parseDocumentText('swagger: 1.2\n'))), { payload: { code: 'SPEC_UNSUPPORTED' } });
  t.match(outputOf(() => detectFormat({ info: {} })), { message: 'Not an OpenAPI description: neither "openapi" (3.0, 3.1) nor "swagger" (2.0) is set', payload: { code: 'SPEC_INVALID' } });
  t.same(describeDocument({ info: { title: 'Pets', version: 2 } }), { title: 'Pets', version: '2' });
  t.same(describeDocument({}), { title: '', version: '' });
});

t.test('baseUrlOf: the first OpenAPI server with its variables at their defaults, relative to the document', async (t) => {
  const doc = { servers: [{ url: 'https://{region}.api.test/{version}/', variables: { region: { default: 'eu' }, version: { default: 'v2' } } }] };
  t.same(baseUrlOf(doc, 'openapi-3.0', undefined, undefined), { baseUrl: 'https://eu.api.test/v2', warnings: [] });
  t.same(baseUrlOf({ servers: [{ url: '/api' }] }, 'openapi-3.1', 'http://127.0.0.1:8080/specs/pets.json', undefined).baseUrl, 'http://127.0.0.1:8080/api');
  t.same(baseUrlOf({}, 'openapi-3.0', 'http://docs.test/spec.yaml', undefined).baseUrl, 'http://docs.test', 'no server: the document\'s origin');
  t.same(baseUrlOf({ servers: [{ url: 'https://x.test/' }] }, 'openapi-3.0', undefined, 'https://override.test/base/').baseUrl, 'https://override.test/base', 'base_url wins');
  t.same(baseUrlOf({}, 'openapi-3.0', undefined, undefined), {
    baseUrl: null, warnings: [{ message: 'The document names no usable server URL: set base_url, or calls will fail (BASE_URL_MISSING)' }],
  });
  t.same(baseUrlOf({ servers: [{ url: 'ftp://files.test' }] }, 'openapi-3.0', undefined, undefined).baseUrl, null, 'only http and https');
  t.same(baseUrlOf({ servers: [{ url: 'https://{tenant}.api.test' }] }, 'openapi-3.0', undefined, undefined).warnings,
    [{ message: 'The server URL https://{tenant}.api.test has a variable without a default: set base_url' }]);
});

t.test('baseUrlOf: Swagger 2.0 scheme (https preferred) + host + basePath, the host from the document\'s URL when absent', async (t) => {
  t.equal(baseUrlOf({ host: 'api.test', schemes: ['http', 'https'], basePath: 'v1' }, 'swagger-2.0', undefined, undefined).baseUrl, 'https://api.test/v1');
  t.equal(baseUrlOf({ schemes: ['http'], basePath: '/v2' }, 'swagger-2.0', 'https://docs.test:8443/swagger.json', undefined).baseUrl, 'http://docs.test:8443/v2');
  t.equal(baseUrlOf({ basePath: '/v2' }, 'swagger-2.0', 'http://docs.test/swagger.json', undefined).baseUrl, 'http://docs.test/v2', 'the document\'s scheme');
  t.equal(baseUrlOf({ host: 'api.test' }, 'swagger-2.0', undefined, undefined).baseUrl, 'https://api.test');
});

t.test('globToRegExp: `*` within one segment, `**` across segments, `?` one character; everything else literal', async (t) => {
  t.ok(globToRegExp('/pets/*').test('/pets/{id}'));
  t.notOk(globToRegExp('/pets/*').test('/pets/{id}/photos'));
  t.ok(globToRegExp('/pets/**').test('/pets/{id}/photos'));
  t.ok(globToRegExp('/v?/users').test('/v2/users'));
  t.notOk(globToRegExp('/v?/users').test('/v10/users'));
  t.notOk(globToRegExp('/a.b').test('/aXb'), 'a dot is a dot');
  t.ok(globToRegExp('/a+(b)').test('/a+(b)'));
  t.ok(globToRegExp('x'.repeat(MAX_GLOB_LENGTH)).test('x'.repeat(MAX_GLOB_LENGTH)));
  t.match(outputOf(() => globToRegExp('x'.repeat(MAX_GLOB_LENGTH + 1))), {
    message: `a path glob may be at most ${MAX_GLOB_LENGTH} characters (one has ${MAX_GLOB_LENGTH + 1})`, statusCode: 400, payload: { code: 'INVALID_FILTER' },
  });
});

t.test('applyFilters: kept when any include criterion matches (or none is set) and no exclude criterion does', async (t) => {
  const ops = [
    { key: 'GET /pets', path: '/pets', operationId: 'listPets', tags: ['pets'] },
    { key: 'POST /pets', path: '/pets', operationId: 'createPet', tags: ['pets', 'admin'] },
    { key: 'GET /store/orders/{id}', path: '/store/orders/{id}', tags: ['store'] },
    { key: 'DELETE /users/{id}', path: '/users/{id}', operationId: 'deleteUser', tags: [] },
  ];
  const keys = (result: ReturnType<typeof applyFilters>) => result.kept.map((op) => op.key);
  t.same(keys(applyFilters(ops)), ops.map((op) => op.key));
  t.same(keys(applyFilters(ops, {})), ops.map((op) => op.key), 'an empty filter is no filter');
  t.same(keys(applyFilters(ops, { tags: ['pets'], paths: ['/store/**'] })), ['GET /pets', 'POST /pets', 'GET /store/orders/{id}']);
  t.same(keys(applyFilters(ops, { operations: ['deleteUser', ' GET /pets '] })), ['GET /pets', 'DELETE /users/{id}'], 'by operationId or "METHOD /path", trimmed');
  const both = applyFilters(ops, { tags: ['pets'] }, { tags: ['admin'] });
  t.same(keys(both), ['GET /pets']);
  t.same(both.skipped, [
    { operation: 'POST /pets', reason: 'excluded' },
    { operation: 'GET /store/orders/{id}', reason: 'not included' },
    { operation: 'DELETE /users/{id}', reason: 'not included' },
  ]);
});

t.test('snakeCase and normalizePrefix', async (t) => {
  t.equal(snakeCase('listPets'), 'list_pets');
  t.equal(snakeCase('getHTTPResponse'), 'get_http_response');
  t.equal(snakeCase('  --Weird..Name__42-- '), 'weird_name_42');
  t.equal(snakeCase('ÄÖ'), '');
  t.equal(normalizePrefix('Pet Store'), 'pet_store_');
  t.equal(normalizePrefix('__'), '');
});

t.test('nameOperations: prefix + snake_case operationId, or method and path; a leading digit gets op_', async (t) => {
  const names = nameOperations([
    { key: 'GET /pets', method: 'get', path: '/pets', operationId: 'listPets' },
    { key: 'GET /users/{id}/posts', method: 'get', path: '/users/{id}/posts' },
    { key: 'GET /2fa', method: 'get', path: '/2fa', operationId: '2faStatus' },
    { key: 'GET /', method: 'get', path: '/', operationId: '---' },
  ], '', {}, new Map());
  t.same(Object.fromEntries(names), { 'GET /pets': 'list_pets', 'GET /users/{id}/posts': 'get_users_by_id_posts', 'GET /2fa': 'op_2fa_status', 'GET /': 'operation' });
  t.equal(nameOperations([{ key: 'GET /pets', method: 'get', path: '/pets', operationId: 'listPets' }], 'petstore_', {}, new Map()).get('GET /pets'), 'petstore_list_pets');
});

t.test('nameOperations: long names and shared names get a stable short hash; overrides as given; a previous name is kept', async (t) => {
  const long = nameOperations([{ key: 'GET /x', method: 'get', path: '/x', operationId: 'a'.repeat(80) }], '', {}, new Map()).get('GET /x')!;
  t.equal(long.length, 64);
  t.match(long, /^a{57}_[0-9a-f]{6}$/);
  t.match(long, FUNCTION_NAME);
  t.equal(nameOperations([{ key: 'GET /x', method: 'get', path: '/x', operationId: 'a'.repeat(80) }], '', {}, new Map()).get('GET /x'), long, 'stable');

  const shared = [
    { key: 'GET /a', method: 'get', path: '/a', operationId: 'list' },
    { key: 'GET /b', method: 'get', path: '/b', operationId: 'List' },
  ];
  const fresh = nameOperations(shared, '', {}, new Map());
  t.equal(fresh.get('GET /a'), 'list', 'by key order, the first keeps the plain name');
  t.match(fresh.get('GET /b'), /^list_[0-9a-f]{6}$/);
  const resynced = nameOperations(shared, '', {}, new Map([['GET /b', 'list']]));
  t.equal(resynced.get('GET /b'), 'list', 'the operation that owns the name keeps it');
  t.match(resynced.get('GET /a'), /^list_[0-9a-f]{6}$/);

  const overridden = nameOperations(shared, 'p_', { List: 'custom', 'GET /a': 'Any Name' }, new Map());
  t.same(Object.fromEntries(overridden), { 'GET /a': 'Any Name', 'GET /b': 'custom' }, 'overrides are used as given, without the prefix');
});

t.test('toJsonSchema: oneOf becomes anyOf, defaults go into the description, read-only properties and non-linear patterns are left out', async (t) => {
  const schema = toJsonSchema({
    type: 'object',
    required: ['id', 'name'],
    properties: {
      id: { type: 'string', readOnly: true },
      name: { type: 'string', description: 'The name', default: 'rex', pattern: '^(a)\\1$' },
      kind: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
      code: { type: 'string', pattern: '^[A-Z]{3}$' },
    },
  }, { nullableKeyword: true });
  const properties = schema.properties as Record<string, Record<string, unknown>>;
  t.notOk('id' in properties, 'read-only: not sent in requests');
  t.equal(properties.name.description, 'The name (default: "rex")');
  t.notOk('default' in properties.name);
  t.notOk('pattern' in properties.name, 'a backreference does not run on RE2');
  t.equal(properties.code.pattern, '^[A-Z]{3}$');
  t.same(properties.kind.anyOf, [{ type: 'string' }, { type: 'integer' }]);
  t.notOk('oneOf' in properties.kind);
  t.same(schema.required, ['name']);
});

t.test('toJsonSchema: recursion is cut off with a permissive schema that says so', async (t) => {
  const node: Record<string, unknown> = { type: 'object', properties: {} };
  (node.properties as Record<string, unknown>).child = node;
  const schema = toJsonSchema(node, { nullableKeyword: false });
  t.same((schema.properties as Record<string, unknown>).child, { description: 'Recursive structure (not expanded)' });
});
