// The ontology's authorization policy, in one place so
// that every surface applies the same rule: routes (declaration, update,
// preflight, health, entity read, trigger), GraphQL, and the sync worker,
// which checks it again when it runs.
//
// - Reads need an authenticated caller; mutations need the role `admin` or
//   `pipeline_editor` in the tenant, or a service or delegation token (the
//   route's RouteAccess, checked by core).
// - A user names the tenant with X-Tenant-ID (one of its organizations). A
//   service or delegation token may omit it: the tenant is then its `tenant`
//   claim (a service token is minted by a trusted internal service for one
//   job); without either, 400 TENANT_REQUIRED.
// - With PLATFORM_ENV production or staging, the tenant needs an exact entry
//   in ONTOLOGY_TENANT_BINDINGS_JSON (403 ONTOLOGY_TENANT_UNBOUND), and a
//   service or delegation caller the capability `ontology:sync`
//   (403 CAPABILITY_REQUIRED).
import { badRequest, capabilitiesOf, forbidden, isValidTenantAlias, notFound, type Principal, type TenantDirectory } from 'agent-platform/sdk';
import type { OntologyOptions } from '../options.ts';

export const SYNC_CAPABILITY = 'ontology:sync';

/** Who acts on the ontology, and in which tenant: what every service method of the plugin receives. */
export interface OntologyCaller {
  tenantId: string;
  principal: Principal;
}

export interface OntologyPolicy {
  readonly enforced: boolean;
  /** The ontology tenant a platform tenant is bound to (itself outside production when unbound). */
  boundTenant(tenantId: string): string | undefined;
  /** Resolves the tenant (the request's, else a service token's claim) and checks the policy. */
  authorize(principal: Principal, requestTenant: string | undefined): Promise<OntologyCaller>;
  /** The worker's check before a sync runs: the binding of the tenant (the caller's capability was checked on trigger). */
  checkTenant(tenantId: string): void;
}

function bindingsOf(options: OntologyOptions): Map<string, string> {
  // Own keys only, compared as written: "*" is a tenant named "*" (none), " acme" is not "acme".
  return new Map(Object.entries(options.tenantBindings === '' ? {} : options.tenantBindings));
}

export function createPolicy(options: OntologyOptions, tenants: TenantDirectory): OntologyPolicy {
  const bindings = bindingsOf(options);
  const enforced = ['production', 'staging'].includes(options.platformEnv);

  function checkTenant(tenantId: string): void {
    if (enforced && !bindings.has(tenantId)) {
      throw forbidden(`Tenant ${tenantId} has no entry in ONTOLOGY_TENANT_BINDINGS_JSON`, 'ONTOLOGY_TENANT_UNBOUND');
    }
  }

  return {
    enforced,
    checkTenant,
    boundTenant: (tenantId) => bindings.get(tenantId) ?? (enforced ? undefined : tenantId),
    async authorize(principal, requestTenant) {
      let tenantId = requestTenant;
      if (tenantId === undefined && principal.kind === 'service' && principal.tenant !== undefined) {
        if (!isValidTenantAlias(principal.tenant)) throw badRequest('The token\'s tenant claim is not a valid tenant alias', 'TENANT_INVALID');
        if (!(await tenants.exists(principal.tenant))) throw notFound(`Tenant not found: ${principal.tenant}`, 'TENANT_NOT_FOUND');
        tenantId = principal.tenant;
      }
      if (tenantId === undefined) throw badRequest('A tenant is required: send X-Tenant-ID', 'TENANT_REQUIRED');
      checkTenant(tenantId);
      if (enforced && principal.kind === 'service' && !capabilitiesOf(principal).includes(SYNC_CAPABILITY)) {
        throw forbidden(`Service and delegation tokens need the capability ${SYNC_CAPABILITY}`, 'CAPABILITY_REQUIRED');
      }
      return { tenantId, principal };
    },
  };
}

/** Who a run or a version records as its author: the user, or the service and the user it acts for. */
export function actorOf(principal: Principal): { kind: string; sub: string; actor?: string } {
  return principal.kind === 'service' && principal.actor ? { kind: 'delegation', sub: principal.sub, actor: principal.actor.sub } : { kind: principal.kind, sub: principal.sub };
}
