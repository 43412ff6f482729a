// The one factory of the console plugin's services: its register and its CLI
// commands both build them here, from the core's services and the manifest's options.
import type { CoreServices } from 'agent-platform/sdk';
import { defaultOptions, type ConsoleOptions } from './options.ts';
import { createLinksService } from './services/links.ts';
import { createUsageService } from './services/usage.ts';

export function createServices(core: CoreServices, given: Partial<ConsoleOptions> = {}) {
  const options = { ...defaultOptions, ...given };
  const port = core.config.env.PORT || '8080';
  return {
    options,
    links: createLinksService(core, { ttlSeconds: options.linkTtlSeconds, publicBaseUrl: options.publicBaseUrl ?? `http://127.0.0.1:${port}` }),
    usage: createUsageService(core),
  };
}

export type ConsoleServices = ReturnType<typeof createServices>;
