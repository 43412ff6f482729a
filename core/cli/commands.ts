// The CLI's command contract. Plugins contribute commands by exporting `cli`
// from plugin.ts; the core adds migrate and serve.
import type { CliCore } from './context.ts';

export interface CliOption {
  type: 'string' | 'boolean';
  description: string;
  required?: boolean;
}

export interface CliCommand {
  /** One or two words: "migrate", "tenants create". */
  name: string;
  description: string;
  positionals?: string[];
  options?: Record<string, CliOption>;
  run(core: CliCore, args: { positionals: string[]; options: Record<string, string | boolean | undefined> }): Promise<unknown>;
}

export class UsageError extends Error {
  override name = 'UsageError';
}
