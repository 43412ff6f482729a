// Credential fields of a pattern's configuration schema: the
// top-level properties declared `credential: true` or `type: "password"` (or
// `format: "password"`). They are write-only: accepted in credential_values,
// never read back, logged, exported or put in an error.
type Schema = Record<string, unknown>;

export function credentialFieldsOf(schema: Schema): string[] {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  return Object.entries(properties)
    .filter(([, p]) => p && (p.credential === true || p.type === 'password' || p.format === 'password'))
    .map(([name]) => name);
}

/** `config` without the credential fields. */
export function withoutCredentials(config: Record<string, unknown>, fields: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(config).filter(([key]) => !fields.includes(key)));
}

/** The credential fields present in `config`. */
export function credentialsIn(config: Record<string, unknown>, fields: string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(config).filter(([key]) => fields.includes(key))) as Record<string, string>;
}
