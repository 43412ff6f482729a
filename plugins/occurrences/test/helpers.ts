// Shared by the occurrences tests: the platform with the occurrences plugin
// (and forms, events, workflows beside it), a tenant with an admin and a
// staff user, and small clients for types, submissions and transitions.
import { startTestPlatform, tenantWithAdmin, until, type TestPlatform } from 'agent-platform/sdk/testing';

type Tap = Parameters<typeof startTestPlatform>[0];

export function manifest(occurrences: Record<string, unknown> = {}) {
  return {
    plugins: [
      { plugin: './plugins/tenancy' },
      { plugin: './plugins/workflows' },
      { plugin: './plugins/events' },
      { plugin: './plugins/forms', options: { publicRatePerMinute: 1000 } },
      { plugin: './plugins/occurrences', options: { publicRatePerMinute: 1000, publicAddressRatePerMinute: 10_000, ...occurrences } },
    ],
  };
}

/** A user of the tenant with these roles, and its token. */
export async function user(tp: TestPlatform, tenant: string, sub: string, roles: string[]) {
  const created = await tp.request({ method: 'POST', url: '/api/admin/users', token: tp.adminToken, payload: { sub, display_name: sub, organizations: [tenant], roles } });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  return (await tp.request({ method: 'POST', url: `/api/admin/users/${sub}/tokens`, token: tp.adminToken })).body.access_token as string;
}

export async function occurrencesPlatform(t: Tap, options: Parameters<typeof startTestPlatform>[1] & { occurrences?: Record<string, unknown> } = {}) {
  const { occurrences, ...rest } = options;
  const tp = await startTestPlatform(t, { manifest: manifest(occurrences), ...rest });
  const acme = await tenantWithAdmin(tp, 'acme');
  const staff = await user(tp, 'acme', 'acme-staff', ['staff']);
  const member = await user(tp, 'acme', 'acme-member', []);
  return { tp, acme, admin: acme.token, staff, member };
}

export const V0_SCHEMA = {
  version: 'v0',
  dynamic_fields: [
    { key: 'depth_cm', label: 'Depth', type: 'integer', required: true },
    { key: 'lane', label: 'Lane', type: 'select', required: false, options: ['left', 'right'] },
  ],
};

export const V1_SCHEMA = {
  version: 'v1',
  format: 'FORMIO',
  schema: {
    display: 'form',
    components: [
      { type: 'number', key: 'lamps', label: 'Lamps out', input: true, validate: { required: true, min: 1, max: 50 } },
      { type: 'textfield', key: 'pole', label: 'Pole number', input: true, validate: { pattern: '[A-Z]{2}-[0-9]{3}' } },
    ],
  },
};

export function api(tp: TestPlatform) {
  const call = (method: string, url: string, auth: { token?: string; tenant?: string; headers?: Record<string, string> }, payload?: unknown) =>
    tp.request({ method, url, token: auth.token, tenant: auth.tenant, headers: auth.headers, payload });
  return {
    call,
    async type(token: string, extra: Record<string, unknown> = {}) {
      const created = await call('POST', '/api/backoffice/occurrence-types/', { token }, {
        name: 'Pothole', code: `pothole-${Math.random().toString(36).slice(2, 8)}`, form_schema: V0_SCHEMA, ...extra,
      });
      if (created.status !== 201) throw new Error(`type: ${JSON.stringify(created.body)}`);
      return created.body as { id: number; code: string };
    },
    submit: (tenant: string, body: Record<string, unknown>, headers?: Record<string, string>) =>
      call('POST', '/api/occurrences/public_submit/', { tenant, headers }, body),
    check: (tenant: string, body: Record<string, unknown>) => call('POST', '/api/occurrences/check_duplicates/', { tenant }, body),
    transition: (token: string, id: number, body: Record<string, unknown>) => call('POST', `/api/occurrences/${id}/transition_state/`, { token }, body),
  };
}

/** A report of a type at a place, with a valid v0 dynamic field. */
export function report(type: number, extra: Record<string, unknown> = {}) {
  return {
    title: 'Deep pothole on Rua Augusta', description: 'A deep pothole in the right lane near the bus stop', occurrence_type: type,
    latitude: 38.7101, longitude: -9.1366, address: 'Rua Augusta 10', reporter_name: 'Ana Silva', reporter_email: 'ana@example.org',
    reporter_phone: '+351 912 345 678', dynamic_fields: { depth_cm: 12, lane: 'right' }, ...extra,
  };
}

/** Rows of a table for a tenant, read past row-level security (the test connects as the cluster's superuser). */
export async function rows(tp: TestPlatform, table: string, tenant: string): Promise<Record<string, any>[]> {
  return (await tp.platform.core.pool.query(`SELECT * FROM ${table} WHERE tenant_id = $1 ORDER BY 1`, [tenant])).rows;
}

/** The tenant's events of a type, once at least `count` are in the stream. */
export async function eventsOf(tp: TestPlatform, token: string, type: string, count = 1) {
  return until(async () => {
    const listed = await tp.request({ url: `/api/admin/triggers/events/recent?type=${type}`, token });
    return listed.body.items?.length >= count && listed.body.items;
  }, `${count} ${type} event(s)`);
}

/** Personal data of the reporter in `report`: none of it may appear in a public answer. */
export const PERSONAL = ['Ana Silva', 'ana@example.org', '912 345 678', 'reporter'];

export function leaksPersonal(body: unknown): string[] {
  const text = JSON.stringify(body);
  return PERSONAL.filter((value) => text.includes(value));
}
