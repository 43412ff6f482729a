// The tools a turn offers the model: the agent's granted functions that exist
// for the tenant now, described through the core function registry. Turns of
// one tenant and agent ask the same question, hundreds at once when a burst
// of questions starts, and a function that does not exist answers with an
// error built for each caller: the answer is kept per tenant and list of
// functions for TOOL_SPECS_MS, and concurrent turns share one lookup. A
// function imported or removed meanwhile is offered, or no longer offered,
// from the next lookup on; a lookup that failed for another reason than a
// missing function is not kept.
import type { CoreServices } from 'agent-platform/sdk';
import type { ToolSpec } from '../model/types.ts';

export const TOOL_SPECS_MS = 5_000;
const MAX_ENTRIES = 1_000;

export class ToolSpecs {
  private readonly entries = new Map<string, { specs: Promise<ToolSpec[]>; until: number }>();
  private readonly functions: CoreServices['functions'];

  constructor(functions: CoreServices['functions']) {
    this.functions = functions;
  }

  of(tenantId: string, names: readonly string[]): Promise<ToolSpec[]> {
    const key = `${tenantId}\u0000${names.join('\u0000')}`;
    const known = this.entries.get(key);
    if (known && known.until > Date.now()) return known.specs;
    const specs: Promise<ToolSpec[]> = this.describe(tenantId, names).then(({ found, keep }) => {
      if (!keep && this.entries.get(key)?.specs === specs) this.entries.delete(key);
      return found;
    });
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { specs, until: Date.now() + TOOL_SPECS_MS });
    return specs;
  }

  private async describe(tenantId: string, names: readonly string[]): Promise<{ found: ToolSpec[]; keep: boolean }> {
    const specs: ToolSpec[] = [];
    let keep = true;
    for (const name of names) {
      try {
        const fn = await this.functions.describe(tenantId, name);
        specs.push({ type: 'function', function: { name, description: fn.description, parameters: { type: 'object', ...fn.parameters } } });
      } catch (err) {
        // Granted but not available now (its plugin is not loaded): not offered.
        if ((err as { output?: { statusCode?: number } }).output?.statusCode !== 404) keep = false;
      }
    }
    return { found: specs, keep };
  }
}
