// The CLI's command contract. Plugins contribute commands by exporting `cli`
// from plugin.ts; the core adds migrate and serve.
import type { CliCore } from './context.ts';

export interface CliOption {
  type: 'string' | 'boolean';
  description: string;
  required?: boolean;
}

export interface CliArgs {
  positionals: string[];
  options: Record<string, string | boolean | undefined>;
}

interface CliCommandShape {
  /** One or two words: "migrate", "tenants create". */
  name: string;
  description: string;
  positionals?: string[];
  options?: Record<string, CliOption>;
}

export interface DatabaseCliCommand extends CliCommandShape {
  offline?: false;
  run(core: CliCore, args: CliArgs): Promise<unknown>;
}

/** A command that needs no database (e.g. computing a webhook signature): it runs without opening one. */
export interface OfflineCliCommand extends CliCommandShape {
  offline: true;
  run(core: undefined, args: CliArgs): Promise<unknown>;
}

export type CliCommand = DatabaseCliCommand | OfflineCliCommand;

export class UsageError extends Error {
  override name = 'UsageError';
}
