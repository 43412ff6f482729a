// The one factory of the identity plugin's services, for its register (and
// any CLI): policies, matching, dry runs, and the api other plugins use.
import type { CoreServices } from 'agent-platform/sdk';
import type { LakehouseApi } from '../lakehouse/api.ts';
import type { TenancyApi } from '../tenancy/api.ts';
import type { IdentityApi } from './api.ts';
import { createMatcher } from './matching/matcher.ts';
import { normalize, normalizeSql } from './matching/normalizers.ts';
import type { IdentityOptions } from './options.ts';
import { createDryRun } from './services/dry-run.ts';
import { createLibraryService } from './services/libraries.ts';
import { createPolicyService } from './services/policies.ts';
import { createRegistryService } from './services/registry.ts';
import { createUserService } from './services/users.ts';

export function createServices(core: CoreServices, options: IdentityOptions, lake: () => LakehouseApi, tenancy: () => TenancyApi) {
  const context = { core, options, lake };
  const policies = createPolicyService(context);
  const match = createMatcher(core, options.matchTimeoutSeconds);
  const dryRun = createDryRun(context, policies, match);
  const api: IdentityApi = { getPolicy: policies.getVersion, normalizeSql, normalize, match };
  const libraries = createLibraryService();
  const registry = createRegistryService(context);
  const users = createUserService(tenancy);
  return { context, policies, dryRun, libraries, registry, users, api };
}
