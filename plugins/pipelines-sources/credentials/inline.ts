// legacy_inline mode: credential values merged into source_config, each one
// sealed in place ({"$sealed": "..."}, additional data binding tenant, source
// and field) so that the relational row never holds a plaintext secret. Kept
// across ordinary updates; never read back.
import type { SecretBox } from 'agent-platform/sdk';

interface SealedValue { $sealed: string }

const aad = (tenantId: string, sourceId: string, field: string) => `pipeline-inline:${tenantId}:${sourceId}:${field}`;

export function isSealed(value: unknown): value is SealedValue {
  return !!value && typeof value === 'object' && typeof (value as SealedValue).$sealed === 'string';
}

export function createInline(secrets: SecretBox) {
  return {
    seal(tenantId: string, sourceId: string, values: Record<string, string>): Record<string, SealedValue> {
      return Object.fromEntries(Object.entries(values).map(([field, value]) => [field, { $sealed: secrets.seal(value, aad(tenantId, sourceId, field)) }]));
    },
    /** The plaintext values of the sealed fields of a stored source_config. */
    open(tenantId: string, sourceId: string, stored: Record<string, unknown>): Record<string, string> {
      const values: Record<string, string> = {};
      for (const [field, value] of Object.entries(stored)) if (isSealed(value)) values[field] = secrets.open(value.$sealed, aad(tenantId, sourceId, field));
      return values;
    },
  };
}

/** The stored config without its sealed fields (what readback shows), and the names of those fields. */
export function splitStored(stored: Record<string, unknown>): { config: Record<string, unknown>; sealedFields: string[] } {
  const config: Record<string, unknown> = {};
  const sealedFields: string[] = [];
  for (const [field, value] of Object.entries(stored)) {
    if (isSealed(value)) sealedFields.push(field);
    else config[field] = value;
  }
  return { config, sealedFields: sealedFields.sort() };
}

export type Inline = ReturnType<typeof createInline>;
