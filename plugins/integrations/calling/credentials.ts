// Which credential a call uses, in the order of spec 4.1: the chat session's,
// then the client's, then the spec's default (its auth value, with ${VAR}
// placeholders resolved from the environment, or the secret-store entry it
// names). Values are opened here, used for one request and never kept.
import { domainError, type SecretBox } from 'agent-platform/sdk';
import { sealContext } from '../sealing.ts';
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

export function resolveCredential(
  row: CallRow, scope: CredentialScope, secrets: SecretBox, env: Record<string, string | undefined>,
): ResolvedCredential | undefined {
  if (row.session_credential && scope.sessionId) {
    const value = secrets.open(row.session_credential.value_sealed, sealContext.session(scope.tenantId, scope.sessionId, row.spec_name));
    return { value, header: row.session_credential.header, level: 'session', fromPlaceholders: false };
  }
  if (row.client_credential && scope.clientId !== null) {
    const value = secrets.open(row.client_credential.value_sealed, sealContext.client(scope.tenantId, scope.clientId, row.spec_name));
    return { value, header: row.client_credential.header, level: 'client', fromPlaceholders: false };
  }
  if (row.auth_value_sealed) {
    const raw = secrets.open(row.auth_value_sealed, sealContext.specAuth(scope.tenantId, row.spec_id));
    return { value: resolvePlaceholders(raw, env, row.spec_name), header: null, level: 'default', fromPlaceholders: hasPlaceholders(raw) };
  }
  const source = row.auth.credential_source;
  if (source) {
    if (!row.secret_sealed) {
      throw domainError(422, `The credential source "${source}" of "${row.spec_name}" is not in the tenant's secret store; no request was sent`, 'CREDENTIAL_SOURCE_MISSING');
    }
    const value = secrets.open(row.secret_sealed, sealContext.secret(scope.tenantId, source));
    return { value, header: null, level: 'default', fromPlaceholders: false };
  }
  return undefined;
}
