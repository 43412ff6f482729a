// The patterns sources are made from: the built-in ones and those partner
// plugins contribute to the `pipelines-sources.patterns` extension point.
// Each configuration schema is compiled once; its credential fields (declared
// `credential: true` or `type: "password"`) are found once.
import { compileCodeSchema, createAjv, notFound, type CoreServices } from 'agent-platform/sdk';
import type { ValidateFunction } from 'ajv';
import type { EventsApi } from '../../events/api.ts';
import { credentialFieldsOf } from '../credentials/fields.ts';
import { csvPattern } from './csv.ts';
import { httpJsonPattern } from './http-json.ts';
import { platformEventsPattern } from './platform-events.ts';
import { platformFunctionPattern } from './platform-function.ts';
import { postgresPattern } from './postgres.ts';
import { registrationsStore } from '../store/registrations.ts';
import { presetPattern } from './presets.ts';
import type { SourcePattern } from './types.ts';
import type { SourcePatternRecord } from '../api.ts';

const PATTERN_ID = /^[a-z0-9_]{1,63}$/;
/** Compiles the code patterns' schemas (the same in every registry of the process); presets use their registry's own. */
const codeAjv = createAjv({ useDefaults: true });

/** `type: "password"` marks a credential field (credentials/fields.ts), not a JSON type: it validates as a string. */
function compilable(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const fixed = Object.fromEntries(Object.entries(properties).map(([name, p]) => [name, p?.type === 'password' ? { ...p, type: 'string' } : p]));
  return { ...schema, properties: fixed };
}

export interface RegisteredPattern {
  pattern: SourcePattern;
  validate: ValidateFunction;
  credentialFields: string[];
  builtIn: boolean;
  /** A preset registered over HTTP: its base pattern. */
  basePattern?: string;
}

/** `events`: the events plugin's api, when the deployment has it (read when used). */
export function createPatternRegistry(core: CoreServices, events: () => EventsApi | undefined) {
  const ajv = createAjv({ useDefaults: true });
  const patterns = new Map<string, RegisteredPattern>();

  // Code patterns (built in, from plugins), and presets registered over HTTP (reloaded from the database).
  let presets = new Map<string, RegisteredPattern>();

  function compiled(pattern: SourcePattern, builtIn: boolean, basePattern?: string): RegisteredPattern {
    const schema = compilable(pattern.configSchema);
    const validate = builtIn ? compileCodeSchema(codeAjv, schema) : ajv.compile(schema);
    return { pattern, validate, credentialFields: credentialFieldsOf(pattern.configSchema), builtIn, basePattern };
  }

  function add(pattern: SourcePattern, builtIn: boolean) {
    if (!PATTERN_ID.test(pattern.id)) throw new Error(`pattern id "${pattern.id}" must match ${PATTERN_ID}`);
    if (patterns.has(pattern.id)) throw new Error(`pattern "${pattern.id}" is already registered`);
    patterns.set(pattern.id, compiled(pattern, builtIn));
  }

  add(postgresPattern, true);
  add(httpJsonPattern, true);
  add(csvPattern, true);
  add(platformEventsPattern(events), true);
  add(platformFunctionPattern(), true);

  /** Replaces the presets with what the database holds (after a change, and before work in any process). */
  async function refresh(): Promise<void> {
    const next = new Map<string, RegisteredPattern>();
    for (const registration of await registrationsStore.all(core.db)) {
      const base = patterns.get(registration.base_pattern);
      if (!base || patterns.has(registration.id)) continue; // a plugin left, or took the id: the code pattern wins
      next.set(registration.id, compiled(presetPattern(registration, base.pattern), false, registration.base_pattern));
    }
    presets = next;
  }

  return {
    register: (pattern: SourcePattern) => add(pattern, false),
    list: () => [...patterns.values(), ...presets.values()].sort((a, b) => a.pattern.id.localeCompare(b.pattern.id)),
    /** A code pattern a preset may be based on. */
    base: (id: string) => patterns.get(id),
    refresh,
    get(id: string): RegisteredPattern {
      const found = patterns.get(id) ?? presets.get(id);
      if (!found) throw notFound(`No source pattern "${id}"`, 'PATTERN_NOT_FOUND');
      return found;
    },
    /** api.getPattern: as GET /patterns/{id} (presets reloaded first), null when there is none. */
    async record(id: string): Promise<SourcePatternRecord | null> {
      await refresh();
      const found = patterns.get(id) ?? presets.get(id);
      return found ? {
        id: found.pattern.id, name: found.pattern.name, description: found.pattern.description,
        configSchema: found.pattern.configSchema as Record<string, unknown>, credentialFields: found.credentialFields,
      } : null;
    },
  };
}

export type PatternRegistry = ReturnType<typeof createPatternRegistry>;
