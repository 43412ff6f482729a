// The OpenAPI 3.1 document of a bare hapi server's route table
// (core/http/openapi/document.ts), no database: operations, parameters,
// bodies by content type, SSE, security, X-Tenant-ID, names, tags, and
// swagger-parser's verdict on it (and on a broken one).
import t from 'tap';
import Hapi from '@hapi/hapi';
import Joi from 'joi';
import SwaggerParser from '@apidevtools/swagger-parser';
import { buildDocument } from '../../core/http/openapi/document.ts';
import { nameOperation, singular } from '../../core/http/openapi/names.ts';
import { orderedTags, pluginTable } from '../../core/http/openapi/tags.ts';

const README = `# X

## Plugins

| Plugin | What it does |
|---|---|
| [tenancy](plugins/tenancy/README.md) | Tenants and their \`clients\` |
| [chat](plugins/chat/README.md) | Chat sessions \\| streams, see [the guide](docs/x.md) |

## Layout
`;

const tenant = Joi.object({ id: Joi.string().required(), name: Joi.string().allow(null) }).label('Tenant');

async function server() {
  const s = Hapi.server();
  s.validator(Joi);
  s.auth.scheme('test', () => ({ authenticate: (_request, h) => h.authenticated({ credentials: {} }) }));
  s.auth.strategy('bearer', 'test');
  s.auth.strategy('api-key', 'test');
  s.route([
    { method: 'GET', path: '/health', options: { auth: false, tags: ['api'], response: { schema: Joi.object({ status: Joi.string() }) } }, handler: () => ({}) },
    { method: 'GET', path: '/hidden', options: { auth: false }, handler: () => ({}) },
  ]);
  await s.register({
    plugin: {
      name: 'tenancy',
      register(p) {
        p.route([
          {
            method: 'GET', path: '/api/admin/tenants',
            options: {
              auth: 'bearer', tags: ['api'], plugins: { platform: { tenant: 'none' } }, description: 'List tenants',
              validate: { query: Joi.object({ limit: Joi.number().integer().min(1).default(50).description('page size'), q: Joi.string() }) },
              response: { schema: Joi.object({ items: Joi.array().items(tenant), total: Joi.number().integer() }) },
            },
            handler: () => ({}),
          },
          {
            method: 'POST', path: '/api/admin/tenants',
            options: { auth: 'bearer', tags: ['api'], validate: { payload: Joi.object({ id: Joi.string().required() }) }, response: { status: { 201: tenant } } },
            handler: () => ({}),
          },
          {
            method: 'GET', path: '/api/admin/tenants/{tenant_id}',
            options: { auth: 'bearer', tags: ['api'], validate: { params: Joi.object({ tenant_id: Joi.string().required() }) }, response: { schema: tenant } },
            handler: () => ({}),
          },
          {
            method: 'POST', path: '/api/admin/tenants/{tenant_id}/files',
            options: {
              auth: { strategies: ['bearer', 'api-key'], mode: 'optional' }, tags: ['api', 'deprecated'],
              payload: { allow: ['multipart/form-data'], multipart: { output: 'stream' }, output: 'data', parse: true },
              validate: { payload: Joi.object({ file: Joi.any().required(), name: Joi.string() }) },
            },
            handler: () => ({}),
          },
        ]);
      },
    },
  });
  await s.register({
    plugin: {
      name: 'chat',
      register(p) {
        p.route([
          { method: 'POST', path: '/api/chat/{id}', options: { auth: 'bearer', tags: ['api'], notes: 'SSE frames: …', validate: { payload: Joi.object({ content: Joi.string() }) } }, handler: () => ({}) },
          { method: 'POST', path: '/api/raw', options: { auth: 'bearer', tags: ['api'], payload: { parse: false, allow: ['text/plain'] } }, handler: () => ({}) },
          { method: 'GET', path: '/files/{path*}', options: { auth: false, tags: ['api'] }, handler: () => ({}) },
        ]);
      },
    },
  });
  return s;
}

t.test('the document of a route table', async (t) => {
  const s = await server();
  const doc = buildDocument(s.table(), { title: 'T', version: '1', pluginTags: pluginTable(README) }) as any;
  t.equal(doc.openapi, '3.1.0');
  t.same(doc.tags.map((tag: { name: string }) => tag.name), ['core', 'tenancy', 'chat'], 'core first, then the README\'s order');
  t.equal(doc.tags[2].description, 'Chat sessions | streams, see the guide', 'the table\'s description, links unwrapped');
  t.notOk(doc.paths['/hidden'], 'a route not tagged api is left out');
  t.ok(doc.paths['/files/{path}'], 'a wildcard parameter is a plain path parameter');

  const list = doc.paths['/api/admin/tenants'].get;
  t.equal(list.operationId, 'listAdminTenants');
  t.same(list.tags, ['tenancy']);
  t.same(list.parameters, [
    { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, default: 50 }, description: 'page size' },
    { name: 'q', in: 'query', required: false, schema: { type: 'string' } },
  ], 'no X-Tenant-ID on a route without a tenant');
  t.same(list.responses['200'].content['application/json'].schema, { $ref: '#/components/schemas/AdminTenantList' });
  t.same(list.security, [{ bearer: [] }]);
  t.same(doc.components.schemas.AdminTenantList.properties.items.items, { $ref: '#/components/schemas/Tenant' }, 'the labelled schema is referenced');

  const create = doc.paths['/api/admin/tenants'].post;
  t.equal(create.operationId, 'createAdminTenant');
  t.same(create.requestBody.content['application/json'].schema, { $ref: '#/components/schemas/CreateAdminTenantRequest' });
  t.same(create.responses['201'].content['application/json'].schema, { $ref: '#/components/schemas/Tenant' }, 'the same joi object, the same component');
  t.match(create.parameters, [{ name: 'X-Tenant-ID', in: 'header', required: false }]);

  const get = doc.paths['/api/admin/tenants/{tenant_id}'].get;
  t.equal(get.operationId, 'getAdminTenant');
  t.notOk(get.parameters.some((p: { name: string }) => p.name === 'X-Tenant-ID'), 'a tenant_id path parameter names the tenant');

  const upload = doc.paths['/api/admin/tenants/{tenant_id}/files'].post;
  t.equal(upload.deprecated, true);
  t.same(upload.security, [{ bearer: [] }, { apiKey: [] }, {}], 'optional auth includes {}');
  t.same(upload.requestBody.content['multipart/form-data'].schema.properties.file, { type: 'string', contentMediaType: 'application/octet-stream' });

  t.same(Object.keys(doc.paths['/api/chat/{id}'].post.responses['200'].content), ['text/event-stream'], 'an SSE route');
  t.same(doc.paths['/api/raw'].post.requestBody, { required: true, content: { 'text/plain': { schema: { type: 'string' } } } }, 'an unparsed body');
  t.same(doc.components.securitySchemes.bearer, { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: doc.components.securitySchemes.bearer.description });
  t.same(doc.components.securitySchemes.apiKey.name, 'X-API-Key');
  t.notOk(Object.keys(doc.components.schemas).some((name) => /^Model/.test(name)), 'no Model<n> name');

  await t.resolves(SwaggerParser.validate(structuredClone(doc)), 'a valid OpenAPI 3.1 document');
  const broken = structuredClone(doc);
  broken.paths['/api/admin/tenants'].get.responses = { 200: { content: {} } };
  await t.rejects(SwaggerParser.validate(broken), 'a response without its description is refused');
  const unresolved = structuredClone(doc);
  unresolved.paths['/api/admin/tenants'].get.responses['200'].content['application/json'].schema = { $ref: '#/components/schemas/Nowhere' };
  await t.rejects(SwaggerParser.validate(unresolved), 'a dangling $ref is refused');
});

t.test('operation names and tags', async (t) => {
  t.same(nameOperation('post', '/api/admin/workflows/{name}/execute').operationId, 'executeAdminWorkflow');
  t.same(nameOperation('get', '/api/v1/sources/{source_id}/streams').operationId, 'listSourcesStreams');
  t.same(nameOperation('put', '/api/backoffice/settings').operationId, 'replaceBackofficeSettings');
  t.same(nameOperation('delete', '/api/v1/sources/{source_id}').operationId, 'deleteSource');
  t.same(nameOperation('get', '/api/v1/status').operationId, 'getStatus');
  t.same(['policies', 'statuses', 'status', 'clients', 'boxes'].map(singular), ['policy', 'status', 'status', 'client', 'box']);
  t.same(orderedTags([{ name: 'b' }, { name: 'a' }], new Set(['a', 'zeta', 'b', 'core'])).map((tag) => tag.name), ['core', 'b', 'a', 'zeta']);
});
