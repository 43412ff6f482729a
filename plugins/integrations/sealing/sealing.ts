// Where each sealed value belongs: the associated data of AES-GCM binds a
// sealed value to its tenant and row, so a value copied into another row (or
// tenant) does not open; values sealed since origin binding also carry the
// origin(s) they were given for (origin-binding.ts).
import { createHmac } from 'node:crypto';
import type { SecretBox } from 'agent-platform/sdk';
import { boundContext } from './origin-binding.ts';

export const sealContext = {
  specAuth: (tenantId: string, specId: string) => `integrations:spec-auth:${tenantId}:${specId}`,
  client: (tenantId: string, clientId: number, serviceName: string) => `integrations:client:${tenantId}:${clientId}:${serviceName}`,
  session: (tenantId: string, sessionId: string, serviceName: string) => `integrations:session:${tenantId}:${sessionId}:${serviceName}`,
  secret: (tenantId: string, key: string) => `integrations:secret:${tenantId}:${key}`,
};

/** Seals a credential for the row `context` and the origin binding it was given for. */
export function sealBound(secrets: SecretBox, value: string, context: string, binding: string | readonly string[]): string {
  return secrets.seal(value, boundContext(context, binding));
}

/**
 * Opens a credential sealed for `binding` (the binding stored beside it,
 * already compared with the spec's). A row sealed before origin binding
 * existed opens with its row context alone: its binding was recorded by the
 * migration. Undefined when neither opens (the stored binding was edited).
 */
export function openBound(secrets: SecretBox, sealed: string, context: string, binding: string | readonly string[]): string | undefined {
  for (const aad of [boundContext(context, binding), context]) {
    try {
      return secrets.open(sealed, aad);
    } catch {
      // try the next
    }
  }
  return undefined;
}

/** A keyed fingerprint of a default auth value: tells a re-import whether it changed, reveals nothing. */
export function fingerprint(secrets: SecretBox, value: string): string {
  return createHmac('sha256', secrets.deriveKey('integrations:auth-fingerprint')).update(value).digest('hex').slice(0, 32);
}
