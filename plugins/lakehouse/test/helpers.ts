// Shared by the lakehouse tests: a platform, tenants, and the lakehouse API.
import type { LakehouseApi } from '../api.ts';
import { startTestPlatform, tenantWithAdmin, type TestPlatform } from 'agent-platform/sdk/testing';

type Tap = Parameters<typeof startTestPlatform>[0];

export function lakeOf(tp: TestPlatform): LakehouseApi {
  return tp.platform.server.plugins.lakehouse.api;
}

export async function lakePlatform(t: Tap, env: Record<string, string> = {}) {
  const tp = await startTestPlatform(t, { env });
  const acme = await tenantWithAdmin(tp, 'acme');
  const beta = await tenantWithAdmin(tp, 'beta');
  return { tp, acme, beta, lake: lakeOf(tp) };
}

export const ORDERS = 'raw.acme.orders';

export const orderColumns = [
  { name: 'id', type: 'bigint' as const },
  { name: 'name', type: 'text' as const },
  { name: 'amount', type: 'numeric' as const },
  { name: 'updated_at', type: 'timestamptz' as const },
  { name: 'tags', type: 'jsonb' as const },
];

export async function ordersDataset(lake: LakehouseApi, primaryKey: string[] = ['id']) {
  return lake.ensureDataset('acme', { datasetId: ORDERS, columns: orderColumns, primaryKey, producer: { kind: 'source_stream', id: 'test', name: 'orders' } });
}

export const records = (...rows: Record<string, unknown>[]) => ({ kind: 'records' as const, batches: [rows] });

/** The raw text of a response: JSON numbers past 2^53 are compared as written. */
export async function rawGet(tp: TestPlatform, url: string, token: string, tenant: string) {
  const response = await tp.platform.server.inject({ url, headers: { authorization: `Bearer ${token}`, 'x-tenant-id': tenant } });
  return { status: response.statusCode, text: response.payload, headers: response.headers };
}

/** A user of the given organizations (no roles unless given), and its token. */
export async function userToken(tp: TestPlatform, sub: string, organizations: string[], roles: string[] = []): Promise<string> {
  const created = await tp.request({ method: 'POST', url: '/api/admin/users', token: tp.adminToken, payload: { sub, display_name: sub, organizations, roles } });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  return (await tp.request({ method: 'POST', url: `/api/admin/users/${sub}/tokens`, token: tp.adminToken })).body.access_token as string;
}
