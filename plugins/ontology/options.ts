// The ontology plugin's manifest options (joi: validated at boot) and its one
// secret, ONTOLOGY_TOKEN, read from the environment here and nowhere else: a
// secret never goes through a manifest.
import Joi from 'joi';
import type { EnvironmentSecret } from 'agent-platform/sdk';

export const optionsSchema = Joi.object({
  /** PLATFORM_ENV: `production` and `staging` turn on the tenant bindings and the `ontology:sync` capability (authorization/policy.ts). */
  platformEnv: Joi.string().max(32).default('development')
    .description('`production` or `staging` turn on the ontology\'s tenant bindings and the `ontology:sync` capability for service and delegation tokens ([plugins/ontology](plugins/ontology/README.md#authorization))'),
  /**
   * ONTOLOGY_TENANT_BINDINGS_JSON: a JSON object, platform tenant alias → the
   * tenant of the ontology service it is bound to (used as X-Tenant-ID by the
   * live preflight). Matched exactly: no wildcard, no trimming or case folding.
   */
  tenantBindings: Joi.alternatives(Joi.object().pattern(Joi.string(), Joi.string()), Joi.string().valid('')).default('')
    .description('JSON object: platform tenant alias → its ontology tenant; matched exactly (no wildcards, no trimming); required per tenant in production/staging (403 `ONTOLOGY_TENANT_UNBOUND`)'),
  /** ONTOLOGY_BASE_URL: the ontology service checked by the live_ontology preflight (its /api/v1/ontology/...); empty: this platform itself is not reachable, the preflight is invalid. */
  baseUrl: Joi.string().uri({ scheme: ['http', 'https'] }).allow('').default('')
    .description('The ontology service the `live_ontology` preflight reads (`GET /api/v1/ontology/entity-types/...`); unset: the preflight is invalid'),
  /** ONTOLOGY_ALLOW_PRIVATE_NETWORKS: the preflight may reach loopback and private addresses. */
  allowPrivateNetworks: Joi.boolean().default(false)
    .description('The preflight may reach loopback and private addresses'),
  /** ONTOLOGY_SYNC_RETRY_LIMIT: retries of a sync attempt that failed or whose worker died. */
  syncRetryLimit: Joi.number().integer().min(0).max(20).default(2)
    .description('Retries of a backing-dataset sync whose attempt failed unexpectedly or whose worker died'),
});

export interface OntologyOptions {
  platformEnv: string;
  tenantBindings: Record<string, string> | '';
  baseUrl: string;
  allowPrivateNetworks: boolean;
  syncRetryLimit: number;
}

/** Secrets, read from the environment by secretsFrom and nowhere else. */
export const secrets: readonly EnvironmentSecret[] = [
  { variable: 'ONTOLOGY_TOKEN', description: 'Bearer token of the preflight\'s read-only requests (never logged or returned)' },
];

/** ONTOLOGY_TOKEN: the bearer token of the preflight's read-only requests (a service or delegation token of the ontology service). */
export function secretsFrom(env: Record<string, string | undefined>): { token: string | undefined } {
  return { token: env.ONTOLOGY_TOKEN || undefined };
}
