// What the identity plugin's services share: the core, its options and the
// lakehouse's api (read when used: the lakehouse registers first).
import type { CoreServices } from 'agent-platform/sdk';
import type { LakehouseApi } from '../../lakehouse/api.ts';
import type { IdentityOptions } from '../options.ts';

export interface IdentityContext {
  core: CoreServices;
  options: IdentityOptions;
  lake(): LakehouseApi;
}
