// JSON Web Tokens: the platform's own (HS256 under a key derived from the
// master key), an external OIDC issuer's (verified against its JWKS), and
// service tokens (HS256 under SERVICE_JWT_SECRET, cross-tenant; each must name
// a trusted `iss`, this platform as `aud`, and live at most SERVICE_JWT_MAX_TTL),
// and embed tokens (embed-tokens.ts: the platform's issuer, their own key and audience).
import type { createRemoteJWKSet, JWTPayload } from 'jose';
import { unauthorized } from '../errors.ts';
import { membershipsFromClaims, type Memberships, type Principal, type ServicePrincipal } from './principal.ts';
import { EMBED_AUDIENCE, signEmbedToken, verifyEmbedToken, type EmbedTokenInput } from './embed-tokens.ts';

/** jose, loaded when a token is first issued or verified (a CLI command may do neither). */
let loadingJose: Promise<typeof import('jose')> | undefined;
const jose = () => (loadingJose ??= import('jose'));

export interface TokenSettings {
  issuer: string;
  ttlSeconds: number;
  signingKey: Uint8Array;
  /** The key of embed tokens (a different derivation of the master key than signingKey). */
  embedSigningKey?: Uint8Array;
  serviceSecret?: string;
  /** Accepted `iss` of service tokens; default `platform-service`. */
  serviceIssuers?: string[];
  /** The `aud` a service token must name; default `agent-platform`. */
  serviceAudience?: string;
  /** Longest accepted exp − iat of a service token; default 3600. */
  serviceMaxTtlSeconds?: number;
  oidcIssuerUrl?: string;
  oidcAudience?: string;
}

export interface IssuedToken {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
}

const AUDIENCE = 'agent-platform';
const VERIFIED_CACHE_SIZE = 10_000;
/** Clock skew allowed for a service token's `iat` (a sender's clock a little ahead). */
const SERVICE_IAT_SKEW_SECONDS = 60;

export class TokenService {
  private readonly settings: TokenSettings;
  private jwks: ReturnType<typeof createRemoteJWKSet> | undefined;
  private oidcIssuer: string | undefined;
  /** The signing key imported once for verification: jose would import a raw key on every call. */
  private verifyKey: Promise<CryptoKey> | undefined;
  private embedVerifyKey: Promise<CryptoKey> | undefined;
  /**
   * Principals of platform tokens (user and embed) that passed verification, by
   * the whole token, each kept until its `exp`: a client sends the same token
   * on every request, and verifying it again (a WebCrypto HMAC) gives the same
   * answer until then, since the keys are fixed for the process. Keyed by the
   * token itself, not a digest of it: the process holds the signing keys
   * anyway, and a digest per request costs more than the lookup. Only
   * successes are kept; tenant and role checks still run on every request.
   */
  private readonly verified = new Map<string, { principal: Principal; exp: number }>();

  constructor(settings: TokenSettings) {
    this.settings = settings;
  }

  async issueUserToken(user: { sub: string; organizations: Memberships; serviceAccount: boolean }): Promise<IssuedToken> {
    const roles = [...new Set(Object.values(user.organizations).flatMap((o) => o.roles))];
    const { SignJWT } = await jose();
    const token = await new SignJWT({ organizations: user.organizations, roles, service_account: user.serviceAccount })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(user.sub)
      .setIssuer(this.settings.issuer)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setJti(crypto.randomUUID())
      .setExpirationTime(`${this.settings.ttlSeconds}s`)
      .sign(this.settings.signingKey);
    return { access_token: token, token_type: 'Bearer', expires_in: this.settings.ttlSeconds };
  }

  /** A short-lived token for one end user of one client (embed-tokens.ts has the claims). */
  async issueEmbedToken(input: EmbedTokenInput): Promise<IssuedToken> {
    if (!this.settings.embedSigningKey) throw new Error('embed tokens need embedSigningKey');
    const token = await signEmbedToken(this.settings.embedSigningKey, this.settings.issuer, input);
    return { access_token: token, token_type: 'Bearer', expires_in: input.ttlSeconds };
  }

  /** Verifies a bearer JWT and returns its principal; any failure is a 401. */
  async verify(token: string): Promise<Principal> {
    const known = this.verified.get(token);
    if (known) {
      // jose's rule: expired once exp <= now (whole seconds).
      if (known.exp > Math.floor(Date.now() / 1000)) return known.principal;
      this.verified.delete(token);
    }
    const { decodeJwt, errors: joseErrors } = await jose();
    let claims: JWTPayload;
    try {
      claims = decodeJwt(token);
    } catch {
      throw unauthorized('Malformed token', 'INVALID_TOKEN');
    }
    try {
      if (claims.iss === this.settings.issuer) {
        const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
        if (audiences.includes(EMBED_AUDIENCE)) return await this.verifyEmbed(token);
        return await this.verifyPlatform(token);
      }
      if (this.settings.oidcIssuerUrl && claims.iss && sameIssuer(claims.iss, this.settings.oidcIssuerUrl)) {
        return await this.verifyOidc(token);
      }
      if (this.settings.serviceSecret && claims.iss && (this.settings.serviceIssuers ?? ['platform-service']).includes(claims.iss)) {
        return await this.verifyService(token);
      }
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) throw unauthorized('Token expired', 'TOKEN_EXPIRED');
      if (err instanceof joseErrors.JOSEError) throw unauthorized('Invalid token', 'INVALID_TOKEN');
      throw err;
    }
    throw unauthorized('Token issuer is not trusted', 'INVALID_TOKEN');
  }

  private async verifyPlatform(token: string): Promise<Principal> {
    this.verifyKey ??= crypto.subtle.importKey('raw', this.settings.signingKey as Uint8Array<ArrayBuffer>, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
    const { jwtVerify } = await jose();
    const { payload } = await jwtVerify(token, await this.verifyKey, {
      issuer: this.settings.issuer, audience: AUDIENCE, algorithms: ['HS256'],
    });
    const principal = userPrincipal(payload, 'platform');
    if (typeof payload.exp === 'number') this.remember(token, principal, payload.exp);
    return principal;
  }

  private async verifyEmbed(token: string): Promise<Principal> {
    if (!this.settings.embedSigningKey) throw unauthorized('Embed tokens are not accepted here', 'INVALID_TOKEN');
    this.embedVerifyKey ??= crypto.subtle.importKey('raw', this.settings.embedSigningKey as Uint8Array<ArrayBuffer>, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
    const { principal, exp } = await verifyEmbedToken(await this.embedVerifyKey, this.settings.issuer, token);
    this.remember(token, principal, exp);
    return principal;
  }

  private remember(token: string, principal: Principal, exp: number): void {
    if (this.verified.size >= VERIFIED_CACHE_SIZE) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, { principal, exp });
  }

  private async verifyOidc(token: string): Promise<Principal> {
    const jwks = await this.oidcKeys();
    const { jwtVerify } = await jose();
    const { payload } = await jwtVerify(token, jwks, {
      issuer: this.oidcIssuer,
      audience: this.settings.oidcAudience,
      algorithms: ['RS256', 'RS384', 'RS512', 'PS256', 'ES256', 'ES384', 'EdDSA'],
    });
    return userPrincipal(payload, 'oidc');
  }

  private async verifyService(token: string): Promise<Principal> {
    // A service token must be short-lived and meant for this platform: a leaked
    // one is valid on every tenant, and a secret shared with another system
    // must not let that system's tokens in. jose checks the signature before
    // any claim, so the specific messages below reach only holders of the secret.
    const { jwtVerify, errors: joseErrors } = await jose();
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, new TextEncoder().encode(this.settings.serviceSecret), {
        algorithms: ['HS256'],
        audience: this.settings.serviceAudience ?? AUDIENCE,
        requiredClaims: ['exp', 'iat'],
      }));
    } catch (err) {
      if (err instanceof joseErrors.JWTClaimValidationFailed) {
        throw unauthorized(`Invalid service token: the ${err.claim} claim is missing or not accepted`, 'INVALID_TOKEN');
      }
      throw err;
    }
    const maxTtl = this.settings.serviceMaxTtlSeconds ?? 3600;
    const iat = payload.iat!;
    if (iat > Math.floor(Date.now() / 1000) + SERVICE_IAT_SKEW_SECONDS) {
      throw unauthorized('Invalid service token: iat is in the future', 'INVALID_TOKEN');
    }
    if (payload.exp! - iat > maxTtl) {
      throw unauthorized(`Invalid service token: lifetime (exp - iat) over ${maxTtl} seconds`, 'INVALID_TOKEN');
    }
    if (!payload.sub) throw unauthorized('Service token has no subject', 'INVALID_TOKEN');
    return serviceExtras({ kind: 'service', sub: payload.sub }, payload);
  }

  /** Discovers the issuer's JWKS once; jose caches and refreshes the keys. */
  private async oidcKeys() {
    if (!this.jwks) {
      const base = this.settings.oidcIssuerUrl!.replace(/\/$/, '');
      const response = await fetch(`${base}/.well-known/openid-configuration`);
      if (!response.ok) throw unauthorized('OIDC issuer discovery failed', 'INVALID_TOKEN');
      const discovery = (await response.json()) as { issuer?: string; jwks_uri?: string };
      if (!discovery.jwks_uri) throw unauthorized('OIDC issuer has no jwks_uri', 'INVALID_TOKEN');
      this.oidcIssuer = discovery.issuer ?? base;
      const { createRemoteJWKSet } = await jose();
      this.jwks = createRemoteJWKSet(new URL(discovery.jwks_uri));
    }
    return this.jwks;
  }
}

function sameIssuer(a: string, b: string): boolean {
  return a.replace(/\/$/, '') === b.replace(/\/$/, '');
}

function userPrincipal(payload: JWTPayload, issuer: 'platform' | 'oidc'): Principal {
  if (!payload.sub) throw unauthorized('Token has no subject', 'INVALID_TOKEN');
  return {
    kind: 'user',
    sub: payload.sub,
    issuer,
    serviceAccount: payload.service_account === true,
    memberships: membershipsFromClaims(payload as Record<string, unknown>),
  };
}

/** Capabilities (`capabilities` array or space-separated `scope`), delegation (`act.sub`) and `tenant` of a service token. */
function serviceExtras(principal: ServicePrincipal, payload: JWTPayload): ServicePrincipal {
  const listed = Array.isArray(payload.capabilities) ? payload.capabilities.filter((c): c is string => typeof c === 'string') : [];
  const scoped = typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : [];
  const capabilities = [...new Set([...listed, ...scoped])];
  if (capabilities.length) principal.capabilities = capabilities;
  const act = payload.act as { sub?: unknown } | undefined;
  if (act !== undefined) {
    if (typeof act !== 'object' || act === null || typeof act.sub !== 'string' || !act.sub) {
      throw unauthorized('Invalid delegation token: act must name the acting user as {"sub": ...}', 'INVALID_TOKEN');
    }
    principal.actor = { sub: act.sub };
  }
  if (typeof payload.tenant === 'string') principal.tenant = payload.tenant;
  return principal;
}
