// Shared by the identity tests: a platform with two tenants, requests as a
// tenant's admin, and users of given roles.
import { startTestPlatform, tenantWithAdmin, type TestPlatform } from 'agent-platform/sdk/testing';

type Tap = Parameters<typeof startTestPlatform>[0];

export async function identityPlatform(t: Tap, env: Record<string, string> = {}) {
  const tp = await startTestPlatform(t, { env });
  const acme = await tenantWithAdmin(tp, 'acme');
  const beta = await tenantWithAdmin(tp, 'beta');
  const as = (who: { token: string; alias: string }) =>
    (method: string, url: string, payload?: unknown) => tp.request({ method, url, token: who.token, tenant: who.alias, payload });
  return { tp, acme, beta, asAcme: as(acme), asBeta: as(beta) };
}

/** A user of the given organizations with the given roles, and its token. */
export async function userToken(tp: TestPlatform, sub: string, organizations: string[], roles: string[] = []): Promise<string> {
  const created = await tp.request({ method: 'POST', url: '/api/admin/users', token: tp.adminToken, payload: { sub, display_name: sub, organizations, roles } });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  return (await tp.request({ method: 'POST', url: `/api/admin/users/${sub}/tokens`, token: tp.adminToken })).body.access_token as string;
}

/** A person-matching policy: exact id, normalized e-mail and phone, fuzzy name within a postcode block. */
export const PEOPLE_POLICY: { name: string; description: string; rules: { name: string; kind: string; fields: { field: string; normalizers?: string[]; threshold?: number }[] }[]; blocking_keys: unknown[] } = {
  name: 'people',
  description: 'Citizens across sources',
  rules: [
    { name: 'same_tax_id', kind: 'exact', fields: [{ field: 'tax_id' }] },
    { name: 'same_email', kind: 'normalized', fields: [{ field: 'email', normalizers: ['email:gmail'] }] },
    { name: 'same_phone', kind: 'normalized', fields: [{ field: 'phone', normalizers: ['phone:351'] }] },
    {
      name: 'similar_name_same_birth', kind: 'fuzzy',
      fields: [{ field: 'name', normalizers: ['accents', 'case', 'whitespace'], threshold: 0.5 }, { field: 'birth_date' }],
    },
    { name: 'similar_name_and_street', kind: 'fuzzy', fields: [
      { field: 'name', normalizers: ['accents', 'case', 'whitespace'], threshold: 0.6 },
      { field: 'street', normalizers: ['accents', 'case', 'whitespace'], threshold: 0.5 },
    ] },
  ],
  blocking_keys: [{ field: 'postcode', normalizers: ['whitespace'] }],
};
