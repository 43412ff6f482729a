// The patterns sources are made from: the built-in ones and those partner
// plugins register through the api (registerPattern) while they register.
// Each configuration schema is compiled once; its credential fields (declared
// `credential: true` or `type: "password"`) are found once.
import { createAjv, notFound, type CoreServices } from 'agent-platform/sdk';
import type { ValidateFunction } from 'ajv';
import type { EventsApi } from '../../events/api.ts';
import { credentialFieldsOf } from '../credentials/fields.ts';
import { csvPattern } from './csv.ts';
import { httpJsonPattern } from './http-json.ts';
import { platformEventsPattern } from './platform-events.ts';
import { platformFunctionPattern } from './platform-function.ts';
import { postgresPattern } from './postgres.ts';
import type { SourcePattern } from './types.ts';

const PATTERN_ID = /^[a-z0-9_]{1,63}$/;

/** `type: "password"` is the spec's credential marker, not a JSON type: it validates as a string. */
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
}

/** `events`: the events plugin's api, when the deployment has it (read when used). */
export function createPatternRegistry(core: CoreServices, events: () => EventsApi | undefined) {
  const ajv = createAjv({ useDefaults: true });
  const patterns = new Map<string, RegisteredPattern>();

  function add(pattern: SourcePattern, builtIn: boolean) {
    if (!PATTERN_ID.test(pattern.id)) throw new Error(`pattern id "${pattern.id}" must match ${PATTERN_ID}`);
    if (patterns.has(pattern.id)) throw new Error(`pattern "${pattern.id}" is already registered`);
    const validate = ajv.compile(compilable(pattern.configSchema));
    patterns.set(pattern.id, { pattern, validate, credentialFields: credentialFieldsOf(pattern.configSchema), builtIn });
  }

  add(postgresPattern, true);
  add(httpJsonPattern, true);
  add(csvPattern, true);
  add(platformEventsPattern(events), true);
  add(platformFunctionPattern(core), true);

  return {
    register: (pattern: SourcePattern) => add(pattern, false),
    list: () => [...patterns.values()],
    get(id: string): RegisteredPattern {
      const found = patterns.get(id);
      if (!found) throw notFound(`No source pattern "${id}"`, 'PATTERN_NOT_FOUND');
      return found;
    },
  };
}

export type PatternRegistry = ReturnType<typeof createPatternRegistry>;
