// Which environment variables a `${VAR}` placeholder in a spec's auth value
// may read: only those the operator allows with the envAllowlist option
// (INTEGRATIONS_ENV_ALLOWLIST in the default manifest: comma-separated exact
// names or PREFIX_* patterns; default INTEGRATION_*), and never one of the platform's own
// settings (platform-settings.ts), even when the allowlist names it.
//
// A refused name reads as unset: the caller cannot tell a refused variable
// from a missing one.
import { ConfigError } from 'agent-platform/sdk';
import { isPlatformSetting } from './platform-settings.ts';

export const ALLOWLIST_SETTING = 'INTEGRATIONS_ENV_ALLOWLIST';
export const DEFAULT_ALLOWLIST = 'INTEGRATION_*';

/** `denied`: a platform setting; `not_allowed`: outside the operator's allowlist. */
export type Verdict = 'allowed' | 'denied' | 'not_allowed';

export interface EnvPolicy {
  verdict(name: string): Verdict;
  /** The variable's value when it may be read and is set (non-empty); undefined otherwise, refused or missing alike. */
  read(name: string): string | undefined;
}

const ENTRY = /^[A-Za-z_][A-Za-z0-9_]*\*?$/;

interface Allowlist {
  names: Set<string>;
  prefixes: string[];
}

/** Parses the setting; a malformed entry fails the boot with one line. */
export function parseAllowlist(raw: string | undefined): Allowlist {
  const text = raw === undefined || raw.trim() === '' ? DEFAULT_ALLOWLIST : raw;
  const allowlist: Allowlist = { names: new Set(), prefixes: [] };
  for (const entry of text.split(',').map((item) => item.trim()).filter(Boolean)) {
    if (!ENTRY.test(entry)) {
      throw new ConfigError(`${ALLOWLIST_SETTING}: "${entry}" is neither a variable name nor a PREFIX_* pattern (a pattern needs a prefix)`);
    }
    if (entry.endsWith('*')) allowlist.prefixes.push(entry.slice(0, -1));
    else allowlist.names.add(entry);
  }
  return allowlist;
}

/** `env`: the variables placeholders read; `allowlistText`: the operator's allowlist (the envAllowlist option). */
export function createEnvPolicy(env: Record<string, string | undefined>, allowlistText: string | undefined): EnvPolicy {
  const allowlist = parseAllowlist(allowlistText);
  const verdict = (name: string): Verdict => {
    if (isPlatformSetting(name)) return 'denied';
    if (allowlist.names.has(name) || allowlist.prefixes.some((prefix) => name.startsWith(prefix))) return 'allowed';
    return 'not_allowed';
  };
  return {
    verdict,
    read(name) {
      if (verdict(name) !== 'allowed') return undefined;
      const value = env[name];
      return value === undefined || value === '' ? undefined : value;
    },
  };
}
