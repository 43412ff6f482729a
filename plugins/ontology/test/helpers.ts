// Shared by the ontology tests: a platform with two tenants, a street-light
// dataset in the lake, entity types, backing datasets, and waiting for runs.
import { SignJWT, type JWTPayload } from 'jose';
import type { LakehouseApi } from '../../lakehouse/api.ts';
import { startTestPlatform, tenantWithAdmin, until, type TestPlatform } from 'agent-platform/sdk/testing';

type Tap = Parameters<typeof startTestPlatform>[0];

export async function ontologyPlatform(t: Tap, env: Record<string, string> = {}, options: { workers?: boolean } = { workers: true }) {
  const tp = await startTestPlatform(t, { env: { JOBS_POLL_INTERVAL_MS: '100', ...env }, listen: options.workers });
  const acme = await tenantWithAdmin(tp, 'acme');
  const beta = await tenantWithAdmin(tp, 'beta');
  const as = (who: { token: string; alias: string }) =>
    (method: string, url: string, payload?: unknown) => tp.request({ method, url, token: who.token, tenant: who.alias, payload });
  return { tp, acme, beta, asAcme: as(acme), asBeta: as(beta), lake: lakeOf(tp) };
}

export const lakeOf = (tp: TestPlatform): LakehouseApi => tp.platform.server.plugins.lakehouse.api;

export const LIGHTS = 'raw.acme.lights';

export const streetLight = {
  code: 'street_light', name: 'Street light', description: 'A public light',
  properties: {
    type: 'object', required: ['light_id', 'name'],
    properties: { light_id: { type: 'string' }, name: { type: 'string' }, watts: { type: 'integer' }, contact: { type: 'string', format: 'email' } },
  },
  keys: ['light_id'],
};

export const lightRows = (n: number, name = (i: number) => `light ${i}`) =>
  Array.from({ length: n }, (_, i) => ({ id: `L${i + 1}`, label: name(i + 1), watts: 40 + i, email: `ops${i + 1}@acme.test` }));

/** Writes a snapshot of raw.acme.lights (overwrite): returns its snapshot id. */
export async function writeLights(lake: LakehouseApi, rows: Record<string, unknown>[]): Promise<string> {
  await lake.ensureDataset('acme', {
    datasetId: LIGHTS, primaryKey: ['id'], producer: { kind: 'source_stream', id: 'test', name: 'lights' },
    columns: [{ name: 'id', type: 'text' }, { name: 'label', type: 'text' }, { name: 'watts', type: 'bigint' }, { name: 'email', type: 'text' }],
  });
  const result = await lake.write('acme', LIGHTS, { mode: 'overwrite', primaryKey: ['id'], source: { kind: 'records', batches: [rows] } });
  return result.snapshotId!;
}

export const lightMappings = [
  { column: 'id', property: 'light_id' }, { column: 'label', property: 'name' }, { column: 'watts', property: 'watts' },
];

type As = (method: string, url: string, payload?: unknown) => Promise<{ status: number; body: any }>;

export async function lightsBacking(as: As, extra: Record<string, unknown> = {}) {
  const type = await as('POST', '/api/v1/ontology/entity-types', streetLight);
  if (type.status !== 201 && type.status !== 409) throw new Error(JSON.stringify(type.body));
  const created = await as('POST', '/api/v1/backing-datasets', { name: 'lights', dataset_id: LIGHTS, entity_type: 'street_light', mappings: lightMappings, key_columns: ['id'], ...extra });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  return created.body as { id: string };
}

/** Triggers a sync and polls the exact run until it is terminal. */
export async function syncAndWait(as: As, backingId: string, force = false) {
  const trigger = await as('POST', `/api/v1/backing-datasets/${backingId}/sync${force ? '?force=true' : ''}`);
  if (trigger.status !== 202) throw new Error(JSON.stringify(trigger.body));
  const run = await waitRun(as, backingId, trigger.body.run_id);
  return { trigger: trigger.body, run };
}

export function waitRun(as: As, backingId: string, runId: string, timeoutMs = 60_000) {
  return until(async () => {
    const run = (await as('GET', `/api/v1/backing-datasets/${backingId}/sync-history/${runId}`)).body;
    return run.is_terminal ? run : undefined;
  }, `sync run ${runId} to end`, timeoutMs);
}

/** A service token (HS256 under SERVICE_JWT_SECRET), with extra claims (capabilities, scope, act, tenant). */
export async function serviceToken(tp: TestPlatform, sub: string, claims: JWTPayload = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iss: 'platform-service', aud: 'agent-platform', iat: now, exp: now + 300, ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setSubject(sub).sign(new TextEncoder().encode(tp.env.SERVICE_JWT_SECRET!));
}

/** A user of the given organizations with the given roles, and its token. */
export async function userToken(tp: TestPlatform, sub: string, organizations: string[], roles: string[] = []): Promise<string> {
  const created = await tp.request({ method: 'POST', url: '/api/admin/users', token: tp.adminToken, payload: { sub, display_name: sub, organizations, roles } });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  return (await tp.request({ method: 'POST', url: `/api/admin/users/${sub}/tokens`, token: tp.adminToken })).body.access_token as string;
}
