// A source's configuration against its pattern's schema: credential fields
// travel only in credential_values, and the configuration the pattern sees
// (credentials in place) must satisfy the schema. Messages name fields,
// never values.
import { badRequest } from 'agent-platform/sdk';
import type { RegisteredPattern } from './registry.ts';

export function checkCredentialFields(pattern: RegisteredPattern, config: Record<string, unknown> | undefined, values: Record<string, string> | undefined): void {
  for (const field of Object.keys(config ?? {})) {
    if (pattern.credentialFields.includes(field)) {
      throw badRequest(`"${field}" is a credential field of ${pattern.pattern.id}: send it in credential_values`, 'CREDENTIAL_IN_CONFIG');
    }
  }
  for (const field of Object.keys(values ?? {})) {
    if (!pattern.credentialFields.includes(field)) {
      const declared = pattern.credentialFields.length ? pattern.credentialFields.join(', ') : 'none';
      throw badRequest(`"${field}" is not a credential field of ${pattern.pattern.id} (declared: ${declared})`, 'CREDENTIAL_FIELD_UNKNOWN');
    }
  }
}

/** Validates the effective configuration (defaults applied to a copy) and returns it. */
export function validatedConfig(pattern: RegisteredPattern, config: Record<string, unknown>, credentials: Record<string, string>): Record<string, unknown> {
  const effective = structuredClone({ ...config, ...credentials });
  if (!pattern.validate(effective)) {
    const problems = (pattern.validate.errors ?? []).map((e) => `${e.instancePath || 'source_config'} ${e.message ?? 'is invalid'}`);
    throw badRequest(`source_config does not fit the ${pattern.pattern.id} pattern: ${problems.join('; ')}`, 'SOURCE_CONFIG_INVALID');
  }
  return effective;
}
