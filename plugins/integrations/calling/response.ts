// What a call returns: the API's status and body whatever the status (an
// agent or a workflow CONDITION decides what a 404 means), JSON bodies
// parsed, binary bodies base64-encoded, and for 401/403 a hint that points
// at the credential that was sent.
import type { OutboundResponse } from './http-client.ts';
import type { ResolvedCredential } from './credentials.ts';

export interface CallResult {
  status: number;
  ok: boolean;
  headers: Record<string, string>;
  body: unknown;
  body_encoding?: 'base64';
  /** Which credential was applied: `session`, `client`, `default` or `none`. */
  credential: string;
  hint?: string;
}

const TEXTUAL = /^(text\/|application\/(?:[\w.+-]+\+)?(?:json|xml|yaml|x-yaml|javascript|x-www-form-urlencoded)\b)/i;

function parseBody(bytes: Uint8Array, contentType: string | null): { body: unknown; encoding?: 'base64' } {
  if (bytes.byteLength === 0) return { body: null };
  if (contentType && !TEXTUAL.test(contentType)) return { body: Buffer.from(bytes).toString('base64'), encoding: 'base64' };
  const text = new TextDecoder().decode(bytes);
  if (!contentType || /[/+]json\b/i.test(contentType)) {
    try {
      return { body: JSON.parse(text) };
    } catch {
      return { body: text };
    }
  }
  return { body: text };
}

function credentialPhrase(specName: string, credential: ResolvedCredential | undefined, clientId: number | null): string {
  if (!credential) return `no credential was found for "${specName}" (none at session, client or spec level)`;
  if (credential.level === 'session') return `the session-level credential for "${specName}" was sent`;
  if (credential.level === 'client') return `the client-level credential of client ${clientId} for "${specName}" was sent`;
  if (credential.fromPlaceholders) return `the default credential of "${specName}" was sent, built from \${VAR} placeholders in its auth value`;
  return `the default credential of "${specName}" was sent`;
}

export function hintFor(status: number, specName: string, credential: ResolvedCredential | undefined, clientId: number | null): string | undefined {
  if (status !== 401 && status !== 403) return undefined;
  return `The API answered ${status}: ${credentialPhrase(specName, credential, clientId)}. `
    + 'The stored credential is probably wrong or expired (replace it with POST /clients/{client_id}/credentials, the session\'s credentials, or a re-import with auth_value), '
    + 'or a ${VAR} in the spec\'s auth value is unresolved or set to the wrong value in the deployment\'s environment.';
}

export function toResult(response: OutboundResponse, credential: ResolvedCredential | undefined, hint: string | undefined): CallResult {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const { body, encoding } = parseBody(response.bytes, response.headers.get('content-type'));
  return {
    status: response.status,
    ok: response.status >= 200 && response.status < 300,
    headers,
    body,
    ...(encoding ? { body_encoding: encoding } : {}),
    credential: credential?.level ?? 'none',
    ...(hint ? { hint } : {}),
  };
}
