// `${VAR}` placeholders in a spec's auth value, resolved when the function
// is called from the variables the operator allows (env/policy.ts). A
// variable that does not resolve (unset, or refused by the policy: the two
// are told apart nowhere) stops the call before any request is sent; the
// error names the variable as the tenant wrote it, never a value.
//
// At import, re-import and re-sync an auth value whose placeholders can never
// resolve (a platform setting, or a name outside the allowlist) is refused:
// that says something about the operator's rule, nothing about the
// environment.
import { badRequest, domainError } from 'agent-platform/sdk';
import { ALLOWLIST_SETTING, DEFAULT_ALLOWLIST, type EnvPolicy } from '../env/policy.ts';

const PLACEHOLDER = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

export function placeholderNames(value: string): string[] {
  return [...new Set(Array.from(value.matchAll(PLACEHOLDER), (match) => match[1]))];
}

export function hasPlaceholders(value: string): boolean {
  return placeholderNames(value).length > 0;
}

/** Refuses (400) an auth value naming a variable that can never resolve. */
export function checkPlaceholders(value: string, policy: EnvPolicy, field = 'auth_value'): void {
  const names = placeholderNames(value);
  const denied = names.filter((name) => policy.verdict(name) === 'denied');
  if (denied.length > 0) {
    throw badRequest(
      `${field}: \${${denied.join('}, ${')}} can never be resolved: the platform's own settings (its configuration variables, PLATFORM_*, DATABASE_URL, and any name ending in _SECRET, _KEY, _TOKEN or _PASSWORD) are never given to integrations; store the credential in the platform instead (auth_value without placeholders, auth_credential_source, client or session credentials)`,
      'AUTH_VARIABLE_NOT_ALLOWED',
    );
  }
  const outside = names.filter((name) => policy.verdict(name) === 'not_allowed');
  if (outside.length > 0) {
    throw badRequest(
      `${field}: \${${outside.join('}, ${')}} can never be resolved: only the variables the operator allows in ${ALLOWLIST_SETTING} (default ${DEFAULT_ALLOWLIST}) are; store the credential in the platform instead (auth_value without placeholders, auth_credential_source, client or session credentials)`,
      'AUTH_VARIABLE_NOT_ALLOWED',
    );
  }
}

export function resolvePlaceholders(value: string, policy: EnvPolicy, specName: string): string {
  const unresolved: string[] = [];
  const resolved = value.replace(PLACEHOLDER, (_whole, name: string) => {
    const found = policy.read(name);
    if (found === undefined) {
      unresolved.push(name);
      return '';
    }
    return found;
  });
  if (unresolved.length > 0) {
    // One message for an unset variable and a refused one: the answer must not tell whether a variable exists.
    throw domainError(
      422,
      `The auth value of "${specName}" refers to \${${[...new Set(unresolved)].join('}, ${')}}, which does not resolve in this deployment (unset, or not a variable the operator allows); no request was sent`,
      'AUTH_VARIABLE_MISSING',
    );
  }
  return resolved;
}
