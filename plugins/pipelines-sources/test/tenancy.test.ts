// The tenant rules on every data-pipeline route (every /api/v1 path of
// the OpenAPI document but the operational ones): the tenant is the explicit
// X-Tenant-ID, never a claim; missing 400 TENANT_REQUIRED, malformed 400
// TENANT_INVALID, not a member 403 TENANT_FORBIDDEN, a token without a
// membership claim 403 TENANT_MEMBERSHIP_MISSING, anonymous 401.
import { SignJWT } from 'jose';
import t from 'tap';
import { sourcesPlatform, userToken } from './helpers.ts';

const OPERATIONAL = ['/api/v1/status', '/api/v1/services/health', '/api/v1/metrics', '/api/v1/queues'];
// The pattern registry is no tenant's: it takes the registry secrets (pattern-registry.test.ts).
const NOT_TENANT = ['/api/v1/patterns/register', '/api/v1/patterns/reconcile'];
// Public: the ontology's status needs no principal.
const PUBLIC = ['/api/v1/ontology/status'];
const PARAMS: Record<string, string> = {
  source_id: '00000000-0000-4000-8000-000000000000', stream_id: '00000000-0000-4000-8000-000000000001', run_id: '00000000-0000-4000-8000-000000000002',
  sync_run_id: '00000000-0000-4000-8000-000000000003', workflow_id: '00000000-0000-4000-8000-000000000004', dataset_id: 'raw.acme.orders',
  table: 'raw.acme.orders', pattern_id: 'postgres', credential_ref: 'cred_aaaaaaaaaaaaaaaaaaaa',
};

t.test('every /api/v1 route applies the tenant rules (X-Tenant-ID, membership)', async (t) => {
  const { tp } = await sourcesPlatform(t);
  const member = await userToken(tp, 'only-acme', ['acme'], ['admin']);
  const bare = await new SignJWT({ roles: ['admin'] }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setSubject('nobody')
    .setIssuer('agent-platform').setAudience('agent-platform').setIssuedAt().setExpirationTime('5m')
    .sign(tp.platform.core.secrets.deriveKey('platform-jwt'));
  const document = (await tp.request({ url: '/docs/openapi.json' })).body as { paths: Record<string, Record<string, unknown>> };
  const routes = Object.entries(document.paths)
    .filter(([path]) => path.startsWith('/api/v1/') && !OPERATIONAL.includes(path) && !NOT_TENANT.includes(path) && !PUBLIC.includes(path))
    .flatMap(([path, methods]) => Object.keys(methods).map((method) => ({ method: method.toUpperCase(), path })));
  t.ok(routes.length >= 40, `${routes.length} routes`);
  for (const { method, path } of routes) {
    const url = path.replace(/\{(\w+)\}/g, (_, name: string) => PARAMS[name] ?? 'x');
    const call = (token: string | undefined, tenant: string | undefined) =>
      tp.request({ method, url, token, tenant, payload: ['POST', 'PUT', 'PATCH'].includes(method) ? {} : undefined });
    const label = `${method} ${path}`;
    const missing = await call(member, undefined);
    t.same([missing.status, missing.body.code], [400, 'TENANT_REQUIRED'], `${label}: no X-Tenant-ID (a user of one organization)`);
    const malformed = await call(member, 'Not An Alias!');
    t.same([malformed.status, malformed.body.code], [400, 'TENANT_INVALID'], `${label}: malformed`);
    const foreign = await call(member, 'beta');
    t.same([foreign.status, foreign.body.code], [403, 'TENANT_FORBIDDEN'], `${label}: not a member`);
    const noClaim = await call(bare, 'acme');
    t.same([noClaim.status, noClaim.body.code], [403, 'TENANT_MEMBERSHIP_MISSING'], `${label}: no membership claim`);
    t.equal((await call(undefined, 'acme')).status, 401, `${label}: anonymous`);
  }
});
