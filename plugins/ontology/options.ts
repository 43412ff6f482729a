// The ontology plugin's manifest options (joi: validated at boot).
import Joi from 'joi';

export const optionsSchema = Joi.object({
  /** PLATFORM_ENV: `production` and `staging` turn on the tenant bindings and the `ontology:sync` capability (policy.ts). */
  platformEnv: Joi.string().max(32).default('development'),
  /**
   * ONTOLOGY_TENANT_BINDINGS_JSON: a JSON object, platform tenant alias → the
   * tenant of the ontology service it is bound to (used as X-Tenant-ID by the
   * live preflight). Matched exactly: no wildcard, no trimming or case folding.
   */
  tenantBindings: Joi.alternatives(Joi.object().pattern(Joi.string(), Joi.string()), Joi.string().valid('')).default(''),
  /** ONTOLOGY_BASE_URL: the ontology service checked by the live_ontology preflight (its /api/v1/ontology/...); empty: this platform itself is not reachable, the preflight is invalid. */
  baseUrl: Joi.string().uri({ scheme: ['http', 'https'] }).allow('').default(''),
  /** ONTOLOGY_TOKEN: the bearer token of the preflight's read-only requests (a service or delegation token of the ontology service). */
  token: Joi.string().allow('').default(''),
  /** ONTOLOGY_ALLOW_PRIVATE_NETWORKS: the preflight may reach loopback and private addresses. */
  allowPrivateNetworks: Joi.boolean().default(false),
  /** ONTOLOGY_SYNC_RETRY_LIMIT: retries of a sync attempt that failed or whose worker died. */
  syncRetryLimit: Joi.number().integer().min(0).max(20).default(2),
});

export interface OntologyOptions {
  platformEnv: string;
  tenantBindings: Record<string, string> | '';
  baseUrl: string;
  token: string;
  allowPrivateNetworks: boolean;
  syncRetryLimit: number;
}
