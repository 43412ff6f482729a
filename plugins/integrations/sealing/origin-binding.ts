// Credentials are bound to the origin they were given for:
// scheme, host and port of the spec's base URL, and for oauth2 also of the
// token URL (the client credentials go there). A credential whose binding is
// not the spec's binding now (a re-import or sync moved the server) is not
// sent: the call fails with 409 until the credential is entered again.
//
// The binding is stored beside each sealed value (a clear 409 without
// decrypting; rows sealed before binding existed got theirs from a
// migration, sql/0061) and is part of the AES-GCM associated data of every
// value sealed since, so a binding edited in the database does not open.
import { domainError } from 'agent-platform/sdk';
import type { AuthConfig } from '../openapi/model.ts';

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

/** `scheme://host:port` (port always written), or `(none)` for a spec without a usable URL. */
export function originOf(url: string | null | undefined): string {
  if (!url) return '(none)';
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.hostname}:${parsed.port || DEFAULT_PORTS[parsed.protocol] || ''}`;
  } catch {
    return '(none)';
  }
}

export interface BindingSource {
  base_url: string | null;
  auth: Pick<AuthConfig, 'scheme' | 'token_url'>;
}

/** Where a spec's credential goes: its server's origin, and the token endpoint's for oauth2. */
export function bindingOf(spec: BindingSource): string {
  const base = originOf(spec.base_url);
  return spec.auth.scheme === 'oauth2' ? `${base} token=${originOf(spec.auth.token_url)}` : base;
}

/** The associated data of a value sealed for one binding (or, for a secret, for a set of them). */
export function boundContext(context: string, binding: string | readonly string[]): string {
  const bindings = typeof binding === 'string' ? binding : [...binding].sort().join(',');
  return `${context}|bound=${bindings}`;
}

/** Which credential a 409 is about, and how it is entered again. */
export type BoundCredential =
  | { level: 'session' }
  | { level: 'client' }
  | { level: 'default auth value' }
  | { level: 'secret-store entry'; key: string };

function describe(credential: BoundCredential): { name: string; again: string } {
  switch (credential.level) {
    case 'session':
      return { name: 'session credential', again: 'store it again with POST /api/sessions/{session_id}/credentials' };
    case 'client':
      return { name: 'client credential', again: 'store it again with POST /clients/{client_id}/credentials' };
    case 'default auth value':
      return { name: 'default auth value', again: 're-import the spec with auth_value' };
    case 'secret-store entry':
      return { name: `secret-store entry "${credential.key}"`, again: `store it again with PUT /api/admin/integrations/secrets/${credential.key}` };
  }
}

/** 409: the credential was given for another origin; nothing is sent until it is entered again. */
export function credentialOriginChanged(credential: BoundCredential, specName: string, enteredFor: string | readonly string[] | null, binding: string) {
  const { name, again } = describe(credential);
  const was = enteredFor === null || enteredFor.length === 0 ? 'for no server of this spec'
    : `for ${typeof enteredFor === 'string' ? enteredFor : enteredFor.join(', ')}`;
  return domainError(
    409,
    `The ${name} of "${specName}" was entered ${was}, and the spec now calls ${binding} (re-imported or synced since): it must be entered again before it is sent there (${again}); no request was sent`,
    'CREDENTIAL_ORIGIN_CHANGED',
  );
}

/** What an import or sync that moves a spec's origin tells the admin (undefined: nothing moves). */
export function originChangeWarning(before: string, after: string): { message: string } | undefined {
  if (before === after) return undefined;
  return {
    message: `The spec's origin changes from ${before} to ${after}: credentials entered for ${before} (client and session credentials, the default auth value unless given again, the secret-store entry it names) are not sent to ${after} until they are entered again (calls answer 409 CREDENTIAL_ORIGIN_CHANGED)`,
  };
}
