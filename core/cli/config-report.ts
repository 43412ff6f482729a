// What `platform config` prints: the effective configuration of this process,
// the core's settings (loadConfig, the GraphQL settings, the connection guard)
// and every loaded plugin's options as its optionsSchema validated them, with
// the secrets each plugin reads from the environment. Secrets never appear:
// a setting whose name ends in secret, key, token or password shows `***`
// when set and `(unset)` otherwise, and a URL's password is masked wherever
// it stands.
import type { PlatformConfig } from '../config.ts';
import { configuredGuard } from '../db/connection-guard.ts';
import { graphqlLimitsFrom } from '../graphql/limits.ts';
import { graphiqlEnabledFrom } from '../graphql/graphiql.ts';
import type { ResolvedPlugin } from '../plugin-loader.ts';

export const REDACTED = '***';
export const UNSET = '(unset)';

const SECRET_WORDS = new Set(['secret', 'secrets', 'key', 'keys', 'token', 'password']);

/** The words of a name, whether camelCase (`serviceJwtSecret`) or a variable (`SERVICE_JWT_SECRET`). */
const wordsOf = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);

/** Whether a setting holds a secret, by its name: its last word is secret, key, token or password. */
export function isSecretName(name: string): boolean {
  return SECRET_WORDS.has(wordsOf(name).at(-1) ?? '');
}

/** `postgres://user:pw@host/db` → `postgres://user:***@host/db`. */
const maskUrlPasswords = (text: string) => text.replace(/(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]*:)[^\s/@]+@/gi, `$1${REDACTED}@`);

function redact(name: string, value: unknown): unknown {
  if (isSecretName(name)) return value === undefined || value === null || value === '' ? UNSET : REDACTED;
  if (typeof value === 'string') return maskUrlPasswords(value);
  if (Array.isArray(value)) return value.map((item) => redact('', item));
  if (value && typeof value === 'object') return redactAll(value as Record<string, unknown>);
  return value === undefined ? null : value;
}

const redactAll = (values: Record<string, unknown>) => Object.fromEntries(Object.entries(values).map(([key, value]) => [key, redact(key, value)]));

/** `maxDepth` → `graphqlMaxDepth`. */
const graphqlSettings = (limits: object) =>
  Object.fromEntries(Object.entries(limits).map(([key, value]) => [`graphql${key[0].toUpperCase()}${key.slice(1)}`, value]));

export interface ConfigReport {
  core: Record<string, unknown>;
  plugins: Record<string, { options: Record<string, unknown>; secrets: Record<string, unknown> }>;
}

export function configReport(config: PlatformConfig, plugins: ResolvedPlugin[]): ConfigReport {
  const { env, ...settings } = config;
  return {
    core: redactAll({
      ...settings, ...graphqlSettings({ ...graphqlLimitsFrom(env), graphiql: graphiqlEnabledFrom(env) }), connectionGuard: configuredGuard(),
    }),
    plugins: Object.fromEntries(plugins.map((plugin) => [plugin.name, {
      options: redactAll(plugin.options),
      secrets: redactAll(Object.fromEntries((plugin.module.secrets ?? []).map(({ variable }) => [variable, env[variable]]))),
    }])),
  };
}

/** The report as table rows for people: one row per setting, nested values as JSON. */
export function configRows(report: ConfigReport): { scope: string; setting: string; value: unknown }[] {
  const rows = Object.entries(report.core).map(([setting, value]) => ({ scope: 'core', setting, value }));
  for (const [name, { options, secrets }] of Object.entries(report.plugins)) {
    for (const [setting, value] of Object.entries({ ...options, ...secrets })) rows.push({ scope: name, setting, value });
  }
  return rows;
}
