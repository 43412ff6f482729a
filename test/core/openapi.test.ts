// The platform's OpenAPI document (default manifest): built once at start
// and served as the same bytes with an ETag; valid OpenAPI 3.1; every
// operation with a unique operationId and its plugin's tag, in the README's
// order; every schema named; the interactive page's assets served locally.
import t from 'tap';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { startTestPlatform } from '../harness.ts';
import { ROOT_DIR } from '../../core/paths.ts';
import { pluginTable } from '../../core/http/openapi/tags.ts';

t.test('the OpenAPI document of the platform', async (t) => {
  const tp = await startTestPlatform(t);
  const first = await tp.request({ url: '/docs/openapi.json' });
  t.equal(first.status, 200);
  t.match(first.headers['content-type'], /^application\/json/);
  t.match(first.headers['cache-control'], /no-cache/);
  t.ok(first.headers.etag, 'with an ETag');
  const doc = first.body;
  t.equal(doc.openapi, '3.1.0');

  const second = await tp.request({ url: '/docs/openapi.json' });
  t.equal(second.headers.etag, first.headers.etag, 'the same ETag on a second request');
  t.same(second.body, doc, 'the same document: built once');
  const revalidated = await tp.platform.server.inject({ url: '/docs/openapi.json', headers: { 'if-none-match': String(first.headers.etag) } });
  t.equal(revalidated.statusCode, 304, 'a revalidation with the ETag is a 304');
  const gzipped = await tp.platform.server.inject({ url: '/docs/openapi.json', headers: { 'accept-encoding': 'gzip' } });
  t.equal(gzipped.headers['content-encoding'], 'gzip');

  await t.resolves(SwaggerParser.validate(structuredClone(doc)), 'valid OpenAPI 3.1 (swagger-parser)');

  const operations = Object.values<Record<string, { operationId?: string; tags?: string[] }>>(doc.paths).flatMap((methods) => Object.values(methods));
  t.ok(operations.length > 300, `${operations.length} operations`);
  const ids = operations.map((operation) => operation.operationId);
  t.ok(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z0-9]*$/.test(id)), 'every operation has a camelCase operationId');
  t.equal(new Set(ids).size, ids.length, 'operationIds are unique');
  t.ok(operations.every((operation) => operation.tags?.length === 1), 'one tag per operation');

  const names = Object.keys(doc.components.schemas);
  t.same(names.filter((name) => /^Model/.test(name)), [], 'no schema named Model…');
  const inline = operations.filter((operation: any) => {
    const schema = operation.requestBody?.content?.['application/json']?.schema;
    return schema && (schema.type === 'object' || schema.type === 'array') && !schema.$ref;
  });
  t.same(inline, [], 'every JSON request body object is a named component');

  const readme = pluginTable(await readFile(path.join(ROOT_DIR, 'README.md'), 'utf8'));
  const tags = doc.tags.map((tag: { name: string }) => tag.name);
  t.equal(tags[0], 'core');
  t.same(tags.slice(1), readme.map((tag) => tag.name).filter((name) => tags.includes(name)), 'plugin tags in the README\'s order');
  t.ok(readme.every((tag) => tags.includes(tag.name)), 'every plugin of the README has its tag (the default manifest loads them all)');
  t.equal(doc.tags.find((tag: { name: string }) => tag.name === 'tenancy').description, readme[0].description);
  t.same(doc.paths['/api/admin/clients'].get.tags, ['tenancy']);
  t.same(doc.paths['/health'].get.tags, ['core']);

  t.same(Object.keys(doc.components.securitySchemes).sort(), ['apiKey', 'bearer']);
  t.same(doc.paths['/api/admin/clients'].get.security, [{ bearer: [] }]);
  t.ok(doc.paths['/api/admin/clients'].get.parameters.some((p: { name: string; in: string }) => p.name === 'X-Tenant-ID' && p.in === 'header'), 'X-Tenant-ID where the route takes a tenant');
  t.same(Object.keys(doc.paths['/api/chat/{session_id}'].post.responses['200'].content), ['text/event-stream']);
  t.ok(doc.paths['/api/admin/collections/{collection_id}/documents'].post.requestBody.content['multipart/form-data'], 'an upload is multipart/form-data');
});

t.test('the interactive page loads its assets from the server', async (t) => {
  const tp = await startTestPlatform(t);
  for (const url of ['/docs', '/docs/ui', '/docs/ui/']) {
    const page = await tp.request({ url });
    t.equal(page.status, 200, url);
    t.match(page.headers['content-type'], /text\/html/);
  }
  const page = String((await tp.request({ url: '/docs' })).body);
  t.notMatch(page, /https?:\/\//, 'no asset from another origin');
  const assets = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
  t.ok(assets.some((asset) => asset.startsWith('/docs/ui/swagger-ui-bundle.js')), 'Swagger UI from the server');
  for (const asset of assets) {
    const response = await tp.platform.server.inject({ url: asset });
    t.equal(response.statusCode, 200, asset);
    t.match(response.headers['cache-control'], /max-age=31536000/, `${asset} is cached`);
  }
  const init = await tp.request({ url: assets.find((asset) => asset.startsWith('/docs/ui/init.js'))! });
  t.match(init.body, /url: '\/docs\/openapi\.json'/);
  t.equal((await tp.request({ url: '/docs/ui/nothing.js' })).status, 404);
});
