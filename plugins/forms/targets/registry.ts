// The registered hydration targets, by model path. The plugins that own them
// contribute them to the `forms.targets` extension point; one that breaks the contract
// stops the boot with one line (PluginContractError).
import { notFound, PluginContractError } from 'agent-platform/sdk';
import type { HydrationTarget } from '../api.ts';

/** `app.Model`: a lowercase app name, then model names. */
export const MODEL_PATH = /^[a-z][a-z0-9_]{0,62}(\.[A-Za-z][A-Za-z0-9_]{0,62}){1,3}$/;

const REQUIRED_FUNCTIONS = ['discoverFields', 'hydrate', 'configSchema'] as const;
const OPTIONAL_FUNCTIONS = ['suggestions', 'standardMappings'] as const;

export function createTargetRegistry() {
  const targets = new Map<string, HydrationTarget>();
  return {
    register(target: HydrationTarget): void {
      const model = (target as { model?: unknown } | undefined)?.model;
      if (typeof model !== 'string' || !MODEL_PATH.test(model)) {
        throw new PluginContractError(`a hydration target is registered with model ${JSON.stringify(model)}: a model path is \`app.Model\``);
      }
      const taken = targets.get(model);
      if (taken) {
        throw new PluginContractError(`hydration target "${model}" is registered twice (as "${taken.label}" and as "${target.label}")`);
      }
      if (typeof target.label !== 'string' || !target.label || typeof target.description !== 'string') {
        throw new PluginContractError(`hydration target "${model}" needs a label and a description`);
      }
      for (const name of REQUIRED_FUNCTIONS) {
        if (typeof target[name] !== 'function') throw new PluginContractError(`hydration target "${model}" has no ${name} function`);
      }
      for (const name of OPTIONAL_FUNCTIONS) {
        if (target[name] !== undefined && typeof target[name] !== 'function') {
          throw new PluginContractError(`hydration target "${model}": ${name} must be a function when given`);
        }
      }
      targets.set(model, target);
    },
    find: (model: string): HydrationTarget | undefined => targets.get(model),
    /** The target of `model`, or a 404 TARGET_NOT_FOUND. */
    get(model: string): HydrationTarget {
      const found = targets.get(model);
      if (!found) throw notFound(`No hydration target is registered under ${model}`, 'TARGET_NOT_FOUND');
      return found;
    },
    list: (): HydrationTarget[] => [...targets.values()].sort((a, b) => a.model.localeCompare(b.model)),
  };
}

export type TargetRegistry = ReturnType<typeof createTargetRegistry>;
