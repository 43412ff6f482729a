// A re-import that keeps the stored default auth value, and a re-sync, check
// its ${VAR} placeholders again: the operator may have narrowed
// INTEGRATIONS_ENV_ALLOWLIST since it was given, and a value that can never
// resolve is refused (400) rather than kept for calls that would all fail.
import type { IntegrationsContext } from '../services/context.ts';
import { checkPlaceholders } from '../calling/placeholders.ts';
import { openBound, sealContext } from './sealing.ts';
import type { SpecRecord } from '../store/tables.ts';

export type StoredAuthValue = Pick<SpecRecord, 'id' | 'auth_value_sealed' | 'auth_value_origin'>;

export function checkStoredAuthValue(context: IntegrationsContext, tenantId: string, spec: StoredAuthValue): void {
  if (!spec.auth_value_sealed || spec.auth_value_origin === null) return;
  const value = openBound(context.secrets, spec.auth_value_sealed, sealContext.specAuth(tenantId, spec.id), spec.auth_value_origin);
  // A value that does not open is never sent either (409 at call time); nothing to check here.
  if (value !== undefined) checkPlaceholders(value, context.envPolicy, 'the stored auth_value (re-import with a new auth_value)');
}
