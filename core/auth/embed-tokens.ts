// Embed tokens: short-lived JWTs the platform
// signs for one end user of a host page, scoped to one tenant, one client and
// one external user (and, when minted for one, one session). plugins/embed
// mints them; core verifies them like every bearer token. They are told apart
// from user tokens three ways, each enough on its own: their own key
// (derived from the master key for this purpose only), their own audience and
// their own `typ` header.
//
// The claims (documented in plugins/embed/README.md):
//   header  alg HS256, typ embed+jwt
//   iss     PLATFORM_TOKEN_ISSUER           aud  agent-platform:embed
//   sub     embed:<client_id>:<external_user_id>
//   tenant_id, client_id (integer), external_user_id, name (display name)
//   sid     the only session the token works for (optional)
//   azp     the embed service account that minted it (absent: the super-admin)
//   iat, exp, jti
import type { JWTPayload } from 'jose';
import { unauthorized } from '../errors.ts';
import type { EmbedPrincipal } from './principal.ts';

/** jose, loaded with the first embed token signed or verified. */
let loadingJose: Promise<typeof import('jose')> | undefined;
const jose = () => (loadingJose ??= import('jose'));

export const EMBED_AUDIENCE = 'agent-platform:embed';
export const EMBED_TOKEN_TYPE = 'embed+jwt';

export interface EmbedTokenInput {
  tenantId: string;
  clientId: number;
  externalUserId: string;
  displayName: string;
  sessionId?: string;
  /** The service account minting it; omitted for the super-admin. */
  mintedBy?: string;
  ttlSeconds: number;
}

export const embedSubject = (clientId: number, externalUserId: string) => `embed:${clientId}:${externalUserId}`;

export async function signEmbedToken(key: Uint8Array, issuer: string, input: EmbedTokenInput): Promise<string> {
  const claims: JWTPayload = {
    tenant_id: input.tenantId,
    client_id: input.clientId,
    external_user_id: input.externalUserId,
    name: input.displayName,
    ...(input.sessionId ? { sid: input.sessionId } : {}),
    ...(input.mintedBy ? { azp: input.mintedBy } : {}),
  };
  const { SignJWT } = await jose();
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: EMBED_TOKEN_TYPE })
    .setSubject(embedSubject(input.clientId, input.externalUserId))
    .setIssuer(issuer)
    .setAudience(EMBED_AUDIENCE)
    .setIssuedAt()
    .setJti(crypto.randomUUID())
    .setExpirationTime(`${input.ttlSeconds}s`)
    .sign(key);
}

/** Verifies signature, issuer, audience, type and expiry; jose's errors propagate (the caller maps them to 401). */
export async function verifyEmbedToken(key: CryptoKey, issuer: string, token: string): Promise<{ principal: EmbedPrincipal; exp: number }> {
  const { jwtVerify } = await jose();
  const { payload } = await jwtVerify(token, key, {
    issuer, audience: EMBED_AUDIENCE, algorithms: ['HS256'], typ: EMBED_TOKEN_TYPE, requiredClaims: ['exp', 'sub'],
  });
  return { principal: embedPrincipal(payload), exp: payload.exp! };
}

function embedPrincipal(payload: JWTPayload): EmbedPrincipal {
  const { tenant_id: tenantId, client_id: clientId, external_user_id: externalUserId, name, sid, azp } = payload as Record<string, unknown>;
  if (typeof tenantId !== 'string' || !Number.isSafeInteger(clientId) || typeof externalUserId !== 'string' || typeof name !== 'string') {
    throw unauthorized('Invalid embed token', 'INVALID_TOKEN');
  }
  if (payload.sub !== embedSubject(clientId as number, externalUserId)) throw unauthorized('Invalid embed token', 'INVALID_TOKEN');
  return {
    kind: 'embed', sub: payload.sub, tenantId, clientId: clientId as number, externalUserId, displayName: name,
    ...(typeof sid === 'string' ? { sessionId: sid } : {}),
    ...(typeof azp === 'string' ? { mintedBy: azp } : {}),
  };
}
