// Shared by the forms tests: the platform with the forms plugin and the
// example asset target (test/fixtures/asset-target, outside plugins/), an
// asset-report form, and small clients for definitions, use cases, uploads
// and submissions.
import { randomBytes } from 'node:crypto';
import { startTestPlatform, tenantWithAdmin, until, type TestPlatform } from 'agent-platform/sdk/testing';

export const MANIFEST = 'test/fixtures/asset-target/test/forms.yaml';
export const MODEL = 'assets.Asset';

/** A 1×1 PNG: detected as image/png from its bytes. */
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** An asset report: what the tests bind, transform, validate and hydrate. */
export function assetForm(): { display: string; components: Record<string, any>[] } {
  return {
    display: 'form',
    components: [
      { type: 'textfield', key: 'title', label: 'Title', input: true, validate: { required: true, maxLength: 200, custom: '', json: '' }, customConditional: '', logic: [] },
      { type: 'number', key: 'serial', label: 'Serial', input: true, validate: { min: 1, max: 999999 } },
      { type: 'textfield', key: 'serialText', label: 'Serial as text', input: true },
      {
        type: 'select', key: 'state', label: 'State', input: true, dataSrc: 'values',
        data: { values: [{ label: 'OK', value: 'ok' }, { label: 'Broken', value: 'broken' }, { label: 'Missing', value: 'missing' }] },
      },
      { type: 'textfield', key: 'code', label: 'Code', input: true, validate: { pattern: '[A-Z]{2}-[0-9]{3}' } },
      { type: 'checkbox', key: 'hasLamp', label: 'Has a lamp', input: true },
      { type: 'textfield', key: 'lampType', label: 'Lamp type', input: true, validate: { required: true }, conditional: { show: true, when: 'hasLamp', eq: 'true', json: '' } },
      {
        type: 'container', key: 'location', label: 'Location', input: true, tree: true,
        components: [{ type: 'number', key: 'latitude', label: 'Latitude', input: true }, { type: 'number', key: 'longitude', label: 'Longitude', input: true }],
      },
      { type: 'textfield', key: 'coords', label: 'Coordinates (lat,lon)', input: true },
      { type: 'file', key: 'photos', label: 'Photos', input: true, multiple: true, storage: 'base64' },
      { type: 'button', key: 'submit', label: 'Submit', input: true, action: 'submit' },
    ],
  };
}

export type Auth = { token?: string; tenant?: string; headers?: Record<string, string> };

export async function formsPlatform(t: Parameters<typeof startTestPlatform>[0], options: Parameters<typeof startTestPlatform>[1] = {}) {
  const tp = await startTestPlatform(t, { manifest: MANIFEST, ...options });
  const acme = await tenantWithAdmin(tp, 'acme');
  return { tp, acme };
}

export function api(tp: TestPlatform) {
  const call = (method: string, url: string, auth: Auth, payload?: unknown) =>
    tp.request({ method, url, token: auth.token, tenant: auth.tenant, headers: auth.headers, payload });
  return {
    call,
    async definition(auth: Auth, schema: unknown = assetForm(), name = `form-${randomBytes(3).toString('hex')}`) {
      const created = await call('POST', '/api/admin/forms/definitions', auth, { name, schema });
      if (created.status !== 201) throw new Error(`definition: ${JSON.stringify(created.body)}`);
      return created.body as { id: string; latest_version: number };
    },
    async useCase(auth: Auth, definitionId: string, extra: Record<string, unknown> = {}) {
      const created = await call('POST', '/api/admin/forms/use-cases', auth, {
        name: 'Report an asset', form_definition_id: definitionId, target_model: MODEL, target_config: { category: 'bench' }, access: 'public', ...extra,
      });
      if (created.status !== 201) throw new Error(`use case: ${JSON.stringify(created.body)}`);
      return created.body as { id: string };
    },
    bindings: (auth: Auth, useCaseId: string, bindings: unknown[]) => call('PUT', `/api/admin/forms/use-cases/${useCaseId}/bindings`, auth, { bindings }),
    submit: (auth: Auth, useCaseId: string, payload: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      call('POST', `/api/forms/use-cases/${useCaseId}/submissions`, auth, { payload, ...extra }),
    preview: (auth: Auth, useCaseId: string, payload: Record<string, unknown>) =>
      call('POST', `/api/admin/forms/use-cases/${useCaseId}/preview`, auth, { payload }),
    async upload(auth: Auth, content: Buffer, filename = 'photo.png') {
      const boundary = `----forms${randomBytes(8).toString('hex')}`;
      const payload = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
        content,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      return tp.request({
        method: 'POST', url: '/api/forms/files', token: auth.token, tenant: auth.tenant, payload,
        headers: { ...auth.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
      });
    },
  };
}

/** Rows of a table for a tenant, read past row-level security (the test connects as the cluster's superuser). */
export async function rows(tp: TestPlatform, table: string, tenant: string): Promise<Record<string, any>[]> {
  return (await tp.platform.core.pool.query(`SELECT * FROM ${table} WHERE tenant_id = $1`, [tenant])).rows;
}

/** The tenant's events of a type, once at least `count` are in the stream. */
export async function eventsOf(tp: TestPlatform, token: string, type: string, count = 1) {
  return until(async () => {
    const listed = await tp.request({ url: `/api/admin/triggers/events/recent?type=${type}`, token });
    return listed.body.items?.length >= count && listed.body.items;
  }, `${count} ${type} event(s)`);
}

/** A user of the tenant without roles, and its token. */
export async function member(tp: TestPlatform, tenant: string, sub = `${tenant}-member`) {
  const created = await tp.request({ method: 'POST', url: '/api/admin/users', token: tp.adminToken, payload: { sub, display_name: sub, organizations: [tenant], roles: [] } });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  return (await tp.request({ method: 'POST', url: `/api/admin/users/${sub}/tokens`, token: tp.adminToken })).body.access_token as string;
}
