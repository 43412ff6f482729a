// What the sources plugin's services share: the core, its options, the
// pattern registry, the credential modes and the lakehouse's api (read when
// used: the lakehouse registers first).
import type { CoreServices } from 'agent-platform/sdk';
import type { EventsApi } from '../../events/api.ts';
import type { LakehouseApi } from '../../lakehouse/api.ts';
import { createInline, type Inline } from '../credentials/inline.ts';
import { createVault, type Vault } from '../credentials/vault.ts';
import type { SourcesOptions } from '../options.ts';
import { createPatternRegistry, type PatternRegistry } from '../patterns/registry.ts';

export interface SourcesContext {
  core: CoreServices;
  options: SourcesOptions;
  patterns: PatternRegistry;
  vault: Vault;
  inline: Inline;
  lake(): LakehouseApi;
}

export function createContext(core: CoreServices, options: SourcesOptions, lake: () => LakehouseApi, events: () => EventsApi | undefined): SourcesContext {
  return { core, options, patterns: createPatternRegistry(core, events), vault: createVault(core.secrets), inline: createInline(core.secrets), lake };
}
