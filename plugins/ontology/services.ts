// The one factory of the ontology's services and of the api other plugins
// use, for its register: the authorization policy, entity types, backing
// datasets, syncs and their runner, and the apply kinds. The other plugins'
// apis are read when used (they register first, or are optional).
import type { CoreServices } from 'agent-platform/sdk';
import type { LakehouseApi } from '../lakehouse/api.ts';
import type { PipelinesAiApi } from '../pipelines-ai/api.ts';
import type { OntologyApi } from './api.ts';
import { applyKinds } from './apply/kinds.ts';
import { createPolicy } from './authorization/policy.ts';
import type { OntologyOptions } from './options.ts';
import { createBackingDatasetService } from './services/backing-datasets.ts';
import type { IdentityPolicies, OntologyContext } from './services/context.ts';
import { createEntityTypeService } from './services/entity-types.ts';
import { createSyncService } from './services/syncs.ts';
import { createSyncRunner } from './sync/runner.ts';

export function createServices(
  core: CoreServices, options: OntologyOptions,
  lake: () => LakehouseApi, identity: () => IdentityPolicies | undefined, ai: () => PipelinesAiApi | undefined,
) {
  const policy = createPolicy(options, core.tenants);
  const context: OntologyContext = { core, options, policy, lake, identity, ai };
  const types = createEntityTypeService(core);
  const backing = createBackingDatasetService(context);
  const syncs = createSyncService(context, backing);
  const runSync = createSyncRunner(context);
  const kinds = applyKinds(context, types, backing);
  const api: OntologyApi = {
    async getEntityType(tenantId, code, version) {
      const row = await types.version(tenantId, code, version);
      return row ? { code: row.code, version: row.version, properties: row.properties, keys: row.keys } : null;
    },
  };
  return { context, policy, types, backing, syncs, runSync, kinds, api };
}

export type OntologyServices = ReturnType<typeof createServices>;
