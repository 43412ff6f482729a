// A re-import that keeps the stored default auth value, and a re-sync, check
// its ${VAR} placeholders again: the operator may have narrowed
// INTEGRATIONS_ENV_ALLOWLIST since it was given, and a value that can never
// resolve is refused (400) rather than kept for calls that would all fail.
import type { IntegrationsContext } from './context.ts';
import { checkPlaceholders } from './calling/placeholders.ts';
import { sealContext } from './sealing.ts';

export interface StoredAuthValue {
  id: string;
  auth_value_sealed: string | null;
}

export function checkStoredAuthValue(context: IntegrationsContext, tenantId: string, spec: StoredAuthValue): void {
  if (!spec.auth_value_sealed) return;
  const value = context.secrets.open(spec.auth_value_sealed, sealContext.specAuth(tenantId, spec.id));
  checkPlaceholders(value, context.envPolicy, 'the stored auth_value (re-import with a new auth_value)');
}
