// The live_ontology preflight: a locally valid backing dataset is
// checked with read-only GET requests against its ontology tenant on the
// ontology service (ONTOLOGY_BASE_URL, bearer ONTOLOGY_TOKEN, X-Tenant-ID the
// tenant's binding): the type exists, has the mapped properties, the same
// keys, the relationships and carrier types the local definition names.
// An unreachable service, a refused token or an unbound tenant make the
// preflight invalid. Nothing is created or modified, here or there.
// Requests go through ofetch over the core's guarded fetch (private
// addresses refused unless ONTOLOGY_ALLOW_PRIVATE_NETWORKS); redirects are
// not followed, so the token never leaves the configured origin; no message
// carries the token or a response body.
import { createFetch } from 'ofetch';
import type { OntologyContext } from '../services/context.ts';
import { secretsFrom } from '../options.ts';
import type { ApplyPlan } from '../../pipelines-apply/api.ts';

type Preflight = NonNullable<ApplyPlan['preflight']>;
import type { Mapping } from '../store/backing-datasets.ts';
import type { EntityTypeDefinition } from '../store/entity-types.ts';

const TIMEOUT_MS = 10_000;

interface RemoteType { code: string; version: number; properties: { properties?: Record<string, unknown> }; keys: string[]; relationships: EntityTypeDefinition['relationships']; carrier_types: string[] }

export interface PreflightInput {
  entityType: string;
  entityTypeVersion: number | null;
  mappings: Mapping[];
  /** The local definition the backing dataset is checked with (relationships and carrier types to find remotely). */
  local: EntityTypeDefinition;
}

export function createPreflight(context: OntologyContext) {
  const { options } = context;
  const { token } = secretsFrom(context.core.config.env);
  const $fetch = createFetch({ fetch: context.core.http.fetch({ allowPrivateNetworks: options.allowPrivateNetworks }) });

  async function get(path: string, remoteTenant: string): Promise<{ status: number; body: unknown } | { error: string }> {
    try {
      const response = await $fetch.raw(`${options.baseUrl.replace(/\/$/, '')}${path}`, {
        method: 'GET', redirect: 'manual', retry: 0, timeout: TIMEOUT_MS, ignoreResponseError: true, responseType: 'json',
        headers: { accept: 'application/json', 'x-tenant-id': remoteTenant, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      });
      return { status: response.status, body: response._data };
    } catch (err) {
      return { error: `the ontology service at ${new URL(options.baseUrl).origin} is unreachable (${(err as Error).name})` };
    }
  }

  return async function preflight(tenantId: string, input: PreflightInput): Promise<Preflight> {
    const checks: Preflight['checks'] = [];
    const done = () => ({ valid: checks.every((c) => c.ok), checks });
    context.policy.checkTenant(tenantId);
    const remoteTenant = context.policy.boundTenant(tenantId);
    if (!remoteTenant) return (checks.push({ check: 'tenant_binding', ok: false, message: `tenant ${tenantId} has no ontology tenant binding` }), done());
    if (!options.baseUrl) return (checks.push({ check: 'reachable', ok: false, message: 'ONTOLOGY_BASE_URL is not set' }), done());
    const path = input.entityTypeVersion === null
      ? `/api/v1/ontology/entity-types/${encodeURIComponent(input.entityType)}`
      : `/api/v1/ontology/entity-types/${encodeURIComponent(input.entityType)}/versions`;
    const answer = await get(path, remoteTenant);
    if ('error' in answer) return (checks.push({ check: 'reachable', ok: false, message: answer.error }), done());
    checks.push({ check: 'reachable', ok: true });
    if (answer.status === 401 || answer.status === 403) {
      return (checks.push({ check: 'authenticated', ok: false, message: `the ontology service refused the credentials (HTTP ${answer.status})` }), done());
    }
    checks.push({ check: 'authenticated', ok: true });
    let remote: RemoteType | undefined;
    if (answer.status === 200) {
      remote = input.entityTypeVersion === null
        ? answer.body as RemoteType
        : ((answer.body as { items?: RemoteType[] }).items ?? []).find((v) => v.version === input.entityTypeVersion);
    } else if (answer.status !== 404) {
      return (checks.push({ check: 'entity_type', ok: false, message: `the ontology service answered HTTP ${answer.status}` }), done());
    }
    if (!remote) {
      return (checks.push({ check: 'entity_type', ok: false, message: `entity type ${input.entityType}${input.entityTypeVersion === null ? '' : ` version ${input.entityTypeVersion}`} not found in ontology tenant ${remoteTenant}` }), done());
    }
    checks.push({ check: 'entity_type', ok: true });
    const remoteProperties = new Set(Object.keys(remote.properties?.properties ?? {}));
    const missing = input.mappings.map((m) => m.property).filter((p) => !remoteProperties.has(p));
    checks.push(missing.length ? { check: 'properties', ok: false, message: `missing properties: ${missing.join(', ')}` } : { check: 'properties', ok: true });
    const sameKeys = remote.keys.length === input.local.keys.length && remote.keys.every((k) => input.local.keys.includes(k));
    checks.push(sameKeys ? { check: 'keys', ok: true } : { check: 'keys', ok: false, message: `keys differ: remote ${remote.keys.join(', ')}, local ${input.local.keys.join(', ')}` });
    const absent = input.local.relationships.filter((r) => !(remote.relationships ?? []).some((x) => x.name === r.name && x.target_type === r.target_type && x.cardinality === r.cardinality && x.via === r.via));
    checks.push(absent.length ? { check: 'relationships', ok: false, message: `missing or different relationships: ${absent.map((r) => r.name).join(', ')}` } : { check: 'relationships', ok: true });
    const carriers = input.local.carrier_types.filter((c) => !(remote.carrier_types ?? []).includes(c));
    checks.push(carriers.length ? { check: 'carrier_types', ok: false, message: `missing carrier types: ${carriers.join(', ')}` } : { check: 'carrier_types', ok: true });
    return done();
  };
}
