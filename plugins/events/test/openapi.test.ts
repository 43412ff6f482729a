// Every events route is in the OpenAPI document (generated from the joi schemas).
import t from 'tap';
import { startEventsPlatform } from './helpers.ts';

t.test('the OpenAPI document lists the events routes', async (t) => {
  const tp = await startEventsPlatform(t);
  const docs = await tp.request({ url: '/docs/openapi.json' });
  t.equal(docs.status, 200);
  const paths = Object.keys(docs.body.paths);
  for (const path of [
    '/api/admin/triggers', '/api/admin/triggers/{name}', '/api/admin/triggers/{name}/test', '/api/admin/triggers/{name}/backfill',
    '/api/admin/triggers/events/emit', '/api/admin/triggers/events/types', '/api/admin/triggers/events/recent',
    '/api/admin/triggers/events/types/custom', '/api/admin/triggers/events/types/custom/{type}',
  ]) t.ok(paths.includes(path), path);
});
