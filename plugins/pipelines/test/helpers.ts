// Shared by the pipelines tests: a platform with two tenants, the lake with
// an input dataset, and request helpers.
import type { LakehouseApi } from '../../lakehouse/api.ts';
import { startTestPlatform, tenantWithAdmin, type TestPlatform } from 'agent-platform/sdk/testing';

type Tap = Parameters<typeof startTestPlatform>[0];

export const ORDERS = 'raw.acme.orders';

export async function pipelinesPlatform(t: Tap, env: Record<string, string> = {}) {
  const tp = await startTestPlatform(t, { env });
  const acme = await tenantWithAdmin(tp, 'acme');
  const beta = await tenantWithAdmin(tp, 'beta');
  const lake: LakehouseApi = tp.platform.server.plugins.lakehouse.api;
  await lake.ensureDataset('acme', {
    datasetId: ORDERS, columns: [{ name: 'id', type: 'bigint' }, { name: 'amount', type: 'numeric' }, { name: 'region', type: 'text' }],
    primaryKey: ['id'], producer: { kind: 'source_stream', id: 'test', name: 'orders' },
  });
  await lake.write('acme', ORDERS, { mode: 'overwrite', source: { kind: 'records', batches: [[
    { id: 1, amount: '5', region: 'north' }, { id: 2, amount: '50', region: 'north' }, { id: 3, amount: '20', region: 'south' }, { id: 4, amount: null, region: 'south' },
  ]] } });
  const as = (who: { token: string; alias: string }) => (method: string, url: string, payload?: unknown) =>
    tp.request({ method, url, token: who.token, tenant: who.alias, payload });
  return { tp, acme, beta, lake, asAcme: as(acme), asBeta: as(beta) };
}

/** Inline-SQL steps: clean → (by_region, big) → report. */
export const diamond = () => [
  { id: 'clean', sql: 'SELECT id, amount, region FROM raw.acme.orders WHERE amount IS NOT NULL', output: 'orders_clean', inputs: [ORDERS] },
  { id: 'by_region', sql: 'SELECT region, sum(amount) AS total FROM derived.acme.orders_clean GROUP BY region', output: 'orders_by_region', inputs: ['clean'] },
  { id: 'big', sql: 'SELECT id, amount FROM derived.acme.orders_clean WHERE amount > 10', output: 'orders_big', inputs: ['derived.acme.orders_clean'] },
  { id: 'report', sql: 'SELECT r.region, r.total, (SELECT count(*) FROM derived.acme.orders_big) AS big_orders FROM derived.acme.orders_by_region r', output: 'orders_report', inputs: ['by_region', 'big'] },
];

/** A user of the given organizations (no roles unless given), and its token. */
export async function userToken(tp: TestPlatform, sub: string, organizations: string[], roles: string[] = []): Promise<string> {
  const created = await tp.request({ method: 'POST', url: '/api/admin/users', token: tp.adminToken, payload: { sub, display_name: sub, organizations, roles } });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  return (await tp.request({ method: 'POST', url: `/api/admin/users/${sub}/tokens`, token: tp.adminToken })).body.access_token as string;
}
