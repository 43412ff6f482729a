// The one factory of the console plugin's services: its register and its CLI
// commands both build them here, from the core's services and the manifest's options.
import type { CoreServices } from 'agent-platform/sdk';
import { serverUrl } from 'agent-platform/sdk/cli';
import { defaultOptions, type ConsoleOptions } from './options.ts';
import { createLinksService } from './services/links.ts';
import { createUsageService } from './services/usage.ts';

export function createServices(core: CoreServices, given: Partial<ConsoleOptions> = {}) {
  const options = { ...defaultOptions, ...given };
  // Without PUBLIC_BASE_URL, a link names the running server this data directory records (as the CLI finds it).
  const publicBaseUrl = options.publicBaseUrl ?? serverUrl({}, core.config.env);
  return {
    options,
    links: createLinksService(core, { ttlSeconds: options.linkTtlSeconds, publicBaseUrl }),
    usage: createUsageService(core),
  };
}

export type ConsoleServices = ReturnType<typeof createServices>;
