// Where each sealed value belongs: the associated data of AES-GCM binds a
// sealed value to its tenant and row, so a value copied into another row (or
// tenant) does not open.
import { createHmac } from 'node:crypto';
import type { SecretBox } from 'agent-platform/sdk';

export const sealContext = {
  specAuth: (tenantId: string, specId: string) => `integrations:spec-auth:${tenantId}:${specId}`,
  client: (tenantId: string, clientId: number, serviceName: string) => `integrations:client:${tenantId}:${clientId}:${serviceName}`,
  session: (tenantId: string, sessionId: string, serviceName: string) => `integrations:session:${tenantId}:${sessionId}:${serviceName}`,
  secret: (tenantId: string, key: string) => `integrations:secret:${tenantId}:${key}`,
};

/** A keyed fingerprint of a default auth value: tells a re-import whether it changed, reveals nothing. */
export function fingerprint(secrets: SecretBox, value: string): string {
  return createHmac('sha256', secrets.deriveKey('integrations:auth-fingerprint')).update(value).digest('hex').slice(0, 32);
}
