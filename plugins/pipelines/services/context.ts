// What the pipelines plugin's services share: the core, its options, and the
// apis of the lakehouse, the transforms plugin and the events plugin (read
// when used: they register first, or, for transforms, may be absent).
import { domainError, type CoreServices } from 'agent-platform/sdk';
import type { EventsApi } from '../../events/api.ts';
import type { LakehouseApi } from '../../lakehouse/api.ts';
import type { PipelinesOptions } from '../options.ts';
import type { TransformsPort } from '../runner/transforms-port.ts';

export interface PipelinesContext {
  core: CoreServices;
  options: PipelinesOptions;
  lake(): LakehouseApi;
  /** The transforms plugin's api, or undefined when it is not loaded. */
  transformsOrNull(): TransformsPort | undefined;
  /** The transforms plugin's api; 503 TRANSFORMS_UNAVAILABLE when it is not loaded. */
  transforms(): TransformsPort;
  events(): EventsApi | undefined;
}

export function createContext(core: CoreServices, options: PipelinesOptions, apis: {
  lake: () => LakehouseApi; transforms: () => TransformsPort | undefined; events: () => EventsApi | undefined;
}): PipelinesContext {
  return {
    core, options, lake: apis.lake, events: apis.events, transformsOrNull: apis.transforms,
    transforms() {
      const api = apis.transforms();
      if (!api) throw domainError(503, 'the pipelines-transforms plugin is not loaded: pipelines cannot run SQL', 'TRANSFORMS_UNAVAILABLE');
      return api;
    },
  };
}
