// `${VAR}` placeholders in a spec's auth value, resolved from the running
// deployment's environment when the function is called. A missing variable
// stops the call before any request is sent; the error names the variable,
// never a value.
import { domainError } from 'agent-platform/sdk';

const PLACEHOLDER = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

export function hasPlaceholders(value: string): boolean {
  PLACEHOLDER.lastIndex = 0;
  return PLACEHOLDER.test(value);
}

export function resolvePlaceholders(value: string, env: Record<string, string | undefined>, specName: string): string {
  const missing: string[] = [];
  const resolved = value.replace(PLACEHOLDER, (_whole, name: string) => {
    const found = env[name];
    if (found === undefined || found === '') {
      missing.push(name);
      return '';
    }
    return found;
  });
  if (missing.length > 0) {
    throw domainError(
      422,
      `The auth value of "${specName}" refers to \${${missing.join('}, ${')}}, which the deployment's environment does not define; no request was sent`,
      'AUTH_VARIABLE_MISSING',
    );
  }
  return resolved;
}
