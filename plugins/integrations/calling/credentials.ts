// Which credential a call uses, in this order: the chat session's,
// then the client's, then the spec's default (its auth value, with ${VAR}
// placeholders resolved from the variables the operator allows, or the
// secret-store entry it names). A credential entered for another origin than
// the spec's now is never sent (409, origin-binding.ts): the order does not
// fall through to the next level, which would send a credential the caller
// did not choose. Values are opened here, used for one request and never kept.
import { domainError, type SecretBox } from 'agent-platform/sdk';
import type { EnvPolicy } from '../env/policy.ts';
import { bindingOf, credentialOriginChanged, type BoundCredential } from '../sealing/origin-binding.ts';
import { openBound, sealContext } from '../sealing/sealing.ts';
import type { CallRow } from '../store/call.ts';
import { hasPlaceholders, resolvePlaceholders } from './placeholders.ts';

export type CredentialLevel = 'session' | 'client' | 'default';

export interface ResolvedCredential {
  value: string;
  /** Header the credential names for itself (session and client credentials may). */
  header: string | null;
  level: CredentialLevel;
  /** The default came from ${VAR} placeholders (a 401 hint mentions them). */
  fromPlaceholders: boolean;
}

export interface CredentialScope {
  tenantId: string;
  sessionId: string | null;
  clientId: number | null;
}

/** Opens a credential when it was entered for `binding`; 409 otherwise (nothing is sent). */
function openFor(
  secrets: SecretBox, row: CallRow, credential: BoundCredential, sealed: string, context: string, enteredFor: string | string[] | null, binding: string,
): string {
  const matches = Array.isArray(enteredFor) ? enteredFor.includes(binding) : enteredFor === binding;
  const value = matches ? openBound(secrets, sealed, context, enteredFor!) : undefined;
  if (value === undefined) throw credentialOriginChanged(credential, row.spec_name, enteredFor, binding);
  return value;
}

export function resolveCredential(row: CallRow, scope: CredentialScope, secrets: SecretBox, env: EnvPolicy): ResolvedCredential | undefined {
  const binding = bindingOf(row);
  if (row.session_credential && scope.sessionId) {
    const { value_sealed, bound_origin, header } = row.session_credential;
    const context = sealContext.session(scope.tenantId, scope.sessionId, row.spec_name);
    const value = openFor(secrets, row, { level: 'session' }, value_sealed, context, bound_origin, binding);
    return { value, header, level: 'session', fromPlaceholders: false };
  }
  if (row.client_credential && scope.clientId !== null) {
    const { value_sealed, bound_origin, header } = row.client_credential;
    const context = sealContext.client(scope.tenantId, scope.clientId, row.spec_name);
    const value = openFor(secrets, row, { level: 'client' }, value_sealed, context, bound_origin, binding);
    return { value, header, level: 'client', fromPlaceholders: false };
  }
  if (row.auth_value_sealed) {
    const context = sealContext.specAuth(scope.tenantId, row.spec_id);
    const raw = openFor(secrets, row, { level: 'default auth value' }, row.auth_value_sealed, context, row.auth_value_origin, binding);
    return { value: resolvePlaceholders(raw, env, row.spec_name), header: null, level: 'default', fromPlaceholders: hasPlaceholders(raw) };
  }
  const source = row.auth.credential_source;
  if (source) {
    if (!row.secret) {
      throw domainError(422, `The credential source "${source}" of "${row.spec_name}" is not in the tenant's secret store; no request was sent`, 'CREDENTIAL_SOURCE_MISSING');
    }
    const context = sealContext.secret(scope.tenantId, source);
    const value = openFor(secrets, row, { level: 'secret-store entry', key: source }, row.secret.value_sealed, context, row.secret.bound_origins, binding);
    return { value, header: null, level: 'default', fromPlaceholders: false };
  }
  return undefined;
}
