// The one query a call makes: the function as it is now, its spec's base URL
// and auth, and the sealed credentials that may apply (the session's, the
// client's, the secret store entry the spec names), each with the origin
// binding it was entered for. One statement in one
// tenant transaction keeps the call's overhead to a single round trip of work.
import { sql } from 'kysely';
import type { TenantTransaction } from 'agent-platform/sdk';
import type { ClientCredentialRecord, FunctionRecord, SecretRecord, SessionCredentialRecord, SpecRecord } from './tables.ts';

type CredentialColumns = 'value_sealed' | 'header' | 'bound_origin';

export type CallRow =
  & Pick<FunctionRecord, 'id' | 'version' | 'status' | 'removed_at' | 'method' | 'path' | 'parameters' | 'json_schema' | 'request' | 'security' | 'description' | 'spec_id'>
  // The spec's auth_value_origin: the binding its default auth value was given for (null: none recorded).
  & Pick<SpecRecord, 'base_url' | 'auth' | 'auth_value_sealed' | 'auth_value_origin'>
  & {
    spec_name: SpecRecord['name'];
    /** json_build_object writes the timestamp as text. */
    session_credential: (Pick<SessionCredentialRecord, CredentialColumns> & { expires_at: string | null }) | null;
    client_credential: Pick<ClientCredentialRecord, CredentialColumns> | null;
    secret: Pick<SecretRecord, 'value_sealed' | 'bound_origins'> | null;
  };

export async function loadCallRow(
  trx: TenantTransaction, name: string, sessionId: string | null, clientId: number | null,
): Promise<CallRow | undefined> {
  const result = await sql<CallRow>`
    SELECT f.id, f.version, f.status, f.removed_at, f.method, f.path, f.parameters, f.json_schema, f.request, f.security, f.description,
           s.id AS spec_id, s.name AS spec_name, s.base_url, s.auth, s.auth_value_sealed, s.auth_value_origin,
           (SELECT json_build_object('value_sealed', c.value_sealed, 'header', c.header, 'expires_at', c.expires_at, 'bound_origin', c.bound_origin)
              FROM integration_session_credentials c
             WHERE ${sessionId}::text IS NOT NULL AND c.session_id = ${sessionId} AND c.service_name = s.name
               AND (c.expires_at IS NULL OR c.expires_at > now())) AS session_credential,
           (SELECT json_build_object('value_sealed', c.value_sealed, 'header', c.header, 'bound_origin', c.bound_origin)
              FROM integration_client_credentials c
             WHERE ${clientId}::bigint IS NOT NULL AND c.client_id = ${clientId} AND c.service_name = s.name) AS client_credential,
           (SELECT json_build_object('value_sealed', v.value_sealed, 'bound_origins', v.bound_origins)
              FROM integration_secrets v WHERE v.key = s.auth->>'credential_source') AS secret
      FROM integration_functions f
      JOIN integration_specs s ON s.id = f.spec_id
     WHERE f.name = ${name}`.execute(trx);
  return result.rows[0];
}
