// The one factory of the identity plugin's services, for its register (and
// any CLI): policies, matching, dry runs, and the api other plugins use.
import type { CoreServices } from 'agent-platform/sdk';
import type { LakehouseApi } from '../lakehouse/api.ts';
import type { IdentityApi } from './api.ts';
import { createMatcher } from './matcher.ts';
import { normalize, normalizeSql } from './normalizers.ts';
import type { IdentityOptions } from './options.ts';
import { createDryRun } from './service-dry-run.ts';
import { createPolicyService } from './service-policies.ts';

export function createServices(core: CoreServices, options: IdentityOptions, lake: () => LakehouseApi) {
  const context = { core, options, lake };
  const policies = createPolicyService(context);
  const match = createMatcher(core);
  const dryRun = createDryRun(context, policies, match);
  const api: IdentityApi = { getPolicy: policies.getVersion, normalizeSql, normalize, match };
  return { context, policies, dryRun, api };
}
