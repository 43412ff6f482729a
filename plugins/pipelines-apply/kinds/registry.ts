// The kind registry: one handler per kind, contributed by the plugin that owns
// the kind to the `pipelines-apply.kinds` extension point. A kind contributed
// twice is a contract break and stops the boot.
import { PluginContractError } from 'agent-platform/sdk';
import type { ApplyKindHandler } from '../api.ts';

const KIND = /^[A-Z][A-Za-z0-9]{0,63}$/;

export function createKindRegistry() {
  const handlers = new Map<string, ApplyKindHandler>();
  return {
    register(handler: ApplyKindHandler): void {
      if (!KIND.test(handler.kind)) throw new PluginContractError(`apply kind "${handler.kind}" must be PascalCase [A-Za-z0-9], 1-64 characters`);
      if (handlers.has(handler.kind)) throw new PluginContractError(`apply kind "${handler.kind}" is registered twice`);
      handlers.set(handler.kind, handler);
    },
    get: (kind: string) => handlers.get(kind),
    kinds: () => [...handlers.keys()].sort(),
  };
}

export type KindRegistry = ReturnType<typeof createKindRegistry>;
