// Patterns registered over HTTP (/patterns/register, /patterns/reconcile) are
// presets of a code pattern (built in or from a plugin): the base's reader
// and discovery, its configuration schema with the preset's values as
// defaults (and no longer required). Credential fields cannot be preset.
import { badRequest, createAjv } from 'agent-platform/sdk';
import type { Registration } from '../store/registrations.ts';
import type { SourcePattern } from './types.ts';

const ajv = createAjv();

export interface PresetBase {
  pattern: SourcePattern;
  credentialFields: string[];
}

/** Checks a registration against its base: 400 naming what does not fit. */
export function checkPreset(registration: Registration, base: PresetBase | undefined): void {
  if (!base) throw badRequest(`No code pattern "${registration.base_pattern}" to base a preset on`, 'PATTERN_BASE_UNKNOWN');
  const properties = (base.pattern.configSchema.properties ?? {}) as Record<string, Record<string, unknown>>;
  for (const key of Object.keys(registration.defaults)) {
    if (base.credentialFields.includes(key)) throw badRequest(`"${key}" is a credential field: it cannot be preset`, 'PATTERN_PRESET_INVALID');
    if (!(key in properties)) throw badRequest(`"${key}" is not a field of ${registration.base_pattern}`, 'PATTERN_PRESET_INVALID');
  }
  const validate = ajv.compile({ type: 'object', properties: Object.fromEntries(Object.keys(registration.defaults).map((k) => [k, { ...properties[k], type: properties[k]!.type === 'password' ? 'string' : properties[k]!.type }])) });
  if (!validate(structuredClone(registration.defaults))) {
    throw badRequest(`defaults do not fit ${registration.base_pattern}: ${(validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`).join('; ')}`, 'PATTERN_PRESET_INVALID');
  }
}

export function presetPattern(registration: Registration, base: SourcePattern): SourcePattern {
  const schema = base.configSchema;
  const properties = Object.fromEntries(Object.entries((schema.properties ?? {}) as Record<string, Record<string, unknown>>)
    .map(([key, property]) => [key, key in registration.defaults ? { ...property, default: registration.defaults[key] } : property]));
  const required = ((schema.required ?? []) as string[]).filter((key) => !(key in registration.defaults));
  return {
    id: registration.id,
    name: registration.name,
    description: registration.description || `${base.name} preset`,
    configSchema: { ...schema, properties, required },
    discover: (context) => base.discover(context),
    read: (context, stream) => base.read(context, stream),
  };
}
