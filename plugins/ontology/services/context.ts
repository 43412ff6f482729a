// What the ontology's services share: the core, options, the authorization policy, and
// the apis of the plugins it uses, read when used (they register first, or
// are optional: identity, pipelines-ai).
import type { CoreServices } from 'agent-platform/sdk';
import type { IdentityApi } from '../../identity/api.ts';
import type { LakehouseApi } from '../../lakehouse/api.ts';
import type { PipelinesAiApi } from '../../pipelines-ai/api.ts';
import type { OntologyOptions } from '../options.ts';
import type { OntologyPolicy } from '../authorization/policy.ts';

/**
 * The part of the identity plugin's api that the ontology uses: a policy's
 * version, fingerprint and rules enter the effective spec (sync/identity-keys.ts),
 * and the sync normalizes key columns with its SQL normalizers.
 */
export type IdentityPolicies = Pick<IdentityApi, 'getPolicy' | 'normalizeSql'>;

export interface OntologyContext {
  core: CoreServices;
  options: OntologyOptions;
  policy: OntologyPolicy;
  lake(): LakehouseApi;
  identity(): IdentityPolicies | undefined;
  /** The pipelines-ai plugin's api when it is loaded (model-assisted mapping suggestions); optional. */
  ai(): PipelinesAiApi | undefined;
}
