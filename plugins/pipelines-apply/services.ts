// The one factory of the apply plugin's services and api: the kind registry
// (filled from the `pipelines-apply.kinds` extension point), the YAML reader (worker threads,
// closed when the server stops) and the apply service over the registry.
import type { CoreServices } from 'agent-platform/sdk';
import type { ApplyApi } from './api.ts';
import { createKindRegistry } from './kinds/registry.ts';
import { createYamlReader } from './request-body/yaml-reader.ts';
import { API_VERSION, createApplyService } from './services/apply.ts';

export function createServices(core: CoreServices) {
  const registry = createKindRegistry();
  const yaml = createYamlReader();
  const api: ApplyApi = { apiVersion: API_VERSION };
  return { registry, yaml, apply: createApplyService(core, registry), api };
}
