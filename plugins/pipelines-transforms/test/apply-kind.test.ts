// The declarative Transform kind handler: create, noop, patch with the
// changed fields, refusal of SQL that may never run; planning writes nothing.
import t from 'tap';
import { transformKindHandler } from '../apply/kind.ts';
import { createServices } from '../services.ts';
import { transformsPlatform } from './helpers.ts';

t.test('Transform kind: create, noop, patch; planning never writes', async (t) => {
  const { tp, asAcme } = await transformsPlatform(t);
  const core = tp.platform.core;
  const services = createServices(core, { statementTimeoutMs: 10_000, maxRows: 1000, runTimeoutSeconds: 60, runRetryLimit: 2, scheduleGraceSeconds: 60 }, () => tp.platform.server.plugins.lakehouse.api);
  const handler = transformKindHandler(services.transforms, core.withTenant);
  const ctx = { tenantId: 'acme', principal: { kind: 'service' as const, sub: 'ci' }, declared: new Map() };
  const doc = (spec: Record<string, unknown>) => ({ apiVersion: 'agent-platform/v1', kind: 'Transform', metadata: { name: 'declared' }, spec });

  const create = await handler.plan(ctx, doc({ sql: 'SELECT id FROM raw.acme.orders' }));
  t.equal(create.action, 'create');
  t.equal((await asAcme.get('/api/v1/transforms')).body.total, 0, 'planning wrote nothing');
  const { id } = await core.withTenant('acme', (trx) => create.execute!(trx));
  t.equal((await asAcme.get(`/api/v1/transforms/${id}`)).body.name, 'declared');

  t.match(await handler.plan(ctx, doc({ sql: 'SELECT id FROM raw.acme.orders' })), { action: 'noop', id });
  const patch = await handler.plan(ctx, doc({ sql: 'SELECT id, customer FROM raw.acme.orders', materialization: 'table' }));
  t.match(patch, { action: 'patch', id, changes: ['sql'] });
  t.equal((await asAcme.get(`/api/v1/transforms/${id}`)).body.sql, 'SELECT id FROM raw.acme.orders', 'planning a patch wrote nothing');
  await core.withTenant('acme', (trx) => patch.execute!(trx));
  t.same((await asAcme.get(`/api/v1/transforms/${id}`)).body.columns.map((c: { name: string }) => c.name), ['id', 'customer']);
  await t.rejects(handler.plan(ctx, doc({ sql: "SELECT set_config('a', 'b', true)" })), { output: { statusCode: 400 } } as never);
});
