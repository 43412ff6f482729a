// Shared by the transforms tests: a platform with two tenants, an orders
// dataset in each, and the transforms and lakehouse APIs.
import type { LakehouseApi } from '../../lakehouse/api.ts';
import type { TransformsApi } from '../api.ts';
import { startTestPlatform, tenantWithAdmin, type TestPlatform } from 'agent-platform/sdk/testing';

type Tap = Parameters<typeof startTestPlatform>[0];

export const transformsOf = (tp: TestPlatform): TransformsApi => tp.platform.server.plugins['pipelines-transforms'].api;

const orderColumns = [
  { name: 'id', type: 'bigint' as const },
  { name: 'customer', type: 'text' as const },
  { name: 'amount', type: 'numeric' as const },
];

export async function ordersOf(lake: LakehouseApi, tenant: string, rows: Record<string, unknown>[]) {
  const datasetId = `raw.${tenant}.orders`;
  await lake.ensureDataset(tenant, { datasetId, columns: orderColumns, primaryKey: ['id'], producer: { kind: 'source_stream', id: 'test', name: 'orders' } });
  await lake.write(tenant, datasetId, { mode: 'overwrite', source: { kind: 'records', batches: [rows] } });
  return datasetId;
}

/** With `workers`, the platform is started (job workers on: queued runs and schedule timers run). */
export async function transformsPlatform(t: Tap, env: Record<string, string> = {}, options: { workers?: boolean } = {}) {
  const tp = await startTestPlatform(t, { env, listen: options.workers });
  const acme = await tenantWithAdmin(tp, 'acme');
  const beta = await tenantWithAdmin(tp, 'beta');
  const lake: LakehouseApi = tp.platform.server.plugins.lakehouse.api;
  await ordersOf(lake, 'acme', [{ id: 1, customer: 'ann', amount: '10.50' }, { id: 2, customer: 'bob', amount: '3' }, { id: 3, customer: 'ann', amount: '7' }]);
  await ordersOf(lake, 'beta', [{ id: 100, customer: 'beta secret', amount: '999' }]);
  const as = (who: { token: string }, tenant: string) => ({
    get: (url: string) => tp.request({ url, token: who.token, tenant }),
    post: (url: string, payload?: unknown) => tp.request({ method: 'POST', url, token: who.token, tenant, payload }),
    patch: (url: string, payload: unknown) => tp.request({ method: 'PATCH', url, token: who.token, tenant, payload }),
    put: (url: string, payload: unknown) => tp.request({ method: 'PUT', url, token: who.token, tenant, payload }),
    del: (url: string) => tp.request({ method: 'DELETE', url, token: who.token, tenant }),
  });
  return { tp, acme, beta, lake, api: transformsOf(tp), asAcme: as(acme, 'acme'), asBeta: as(beta, 'beta') };
}
