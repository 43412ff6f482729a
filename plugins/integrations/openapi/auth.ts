// The auth configuration of an import: what the settings say, completed from
// the document's security schemes (the apiKey header or query parameter name,
// the oauth2 client-credentials token URL), or inferred from the document
// when the settings name no scheme.
import { badRequest } from 'agent-platform/sdk';
import type { AuthConfig, AuthScheme, SpecFormat, Warning } from './model.ts';

export interface AuthSettings {
  auth_scheme?: AuthScheme;
  auth_header?: string;
  auth_query_param?: string;
  auth_credential_source?: string;
  auth_token_url?: string;
}

type Candidate = Omit<AuthConfig, 'credential_source' | 'value_fingerprint' | 'inferred'>;

const isObject = (value: unknown): value is Record<string, any> => value !== null && typeof value === 'object' && !Array.isArray(value);

function securitySchemes(doc: Record<string, any>, format: SpecFormat): Record<string, Record<string, any>> {
  const found = format === 'swagger-2.0' ? doc.securityDefinitions : doc.components?.securitySchemes;
  return isObject(found) ? found : {};
}

/** Scopes of the document-level requirements naming this scheme. */
function requiredScopes(doc: Record<string, any>, name: string): string[] {
  const requirements: unknown[] = Array.isArray(doc.security) ? doc.security : [];
  return [...new Set(requirements.flatMap((r) => (isObject(r) && Array.isArray(r[name]) ? r[name].map(String) : [])))];
}

function tokenUrlOf(scheme: Record<string, any>): string | undefined {
  if (isObject(scheme.flows) && isObject(scheme.flows.clientCredentials) && typeof scheme.flows.clientCredentials.tokenUrl === 'string') {
    return scheme.flows.clientCredentials.tokenUrl;
  }
  if (scheme.flow === 'application' && typeof scheme.tokenUrl === 'string') return scheme.tokenUrl;
  return undefined;
}

function fromScheme(name: string, scheme: Record<string, any>, doc: Record<string, any>): Candidate | undefined {
  const base: Candidate = { scheme: 'none', header: null, query_param: null, token_url: null, scopes: [] };
  if (scheme.type === 'apiKey' && typeof scheme.name === 'string') {
    if (scheme.in === 'header') return { ...base, scheme: 'apiKey', header: scheme.name };
    if (scheme.in === 'query') return { ...base, scheme: 'apiKey', query_param: scheme.name };
    return undefined;
  }
  if (scheme.type === 'http' && typeof scheme.scheme === 'string') {
    if (scheme.scheme.toLowerCase() === 'bearer') return { ...base, scheme: 'bearer', header: 'Authorization' };
    if (scheme.scheme.toLowerCase() === 'basic') return { ...base, scheme: 'basic', header: 'Authorization' };
    return undefined;
  }
  if (scheme.type === 'basic') return { ...base, scheme: 'basic', header: 'Authorization' };
  if (scheme.type === 'oauth2') {
    const tokenUrl = tokenUrlOf(scheme);
    return tokenUrl ? { ...base, scheme: 'oauth2', header: 'Authorization', token_url: tokenUrl, scopes: requiredScopes(doc, name) } : undefined;
  }
  return undefined;
}

function absoluteTokenUrl(url: string, sourceUrl: string | undefined): string {
  try {
    const parsed = sourceUrl ? new URL(url, sourceUrl) : new URL(url);
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return parsed.href;
  } catch {
    // reported below
  }
  throw badRequest(`The oauth2 token URL ${JSON.stringify(url)} is not an absolute http(s) URL`, 'AUTH_INVALID');
}

export function authConfigOf(
  doc: Record<string, any>, format: SpecFormat, settings: AuthSettings, sourceUrl: string | undefined,
): { auth: Omit<AuthConfig, 'value_fingerprint'>; warnings: Warning[] } {
  const schemes = securitySchemes(doc, format);
  const preferred = [
    ...new Set([
      ...(Array.isArray(doc.security) ? doc.security.flatMap((r: unknown) => (isObject(r) ? Object.keys(r) : [])) : []),
      ...Object.keys(schemes),
    ]),
  ];
  const candidates = preferred.flatMap((name) => {
    const scheme = schemes[name];
    const candidate = isObject(scheme) ? fromScheme(name, scheme, doc) : undefined;
    return candidate ? [candidate] : [];
  });
  const warnings: Warning[] = [];
  const credential_source = settings.auth_credential_source ?? null;
  let chosen: Candidate;
  let inferred = false;
  if (settings.auth_scheme) {
    const same = candidates.find((c) => c.scheme === settings.auth_scheme);
    chosen = same ?? { scheme: settings.auth_scheme, header: null, query_param: null, token_url: null, scopes: [] };
  } else {
    inferred = true;
    chosen = candidates[0] ?? { scheme: 'none', header: null, query_param: null, token_url: null, scopes: [] };
    if (!candidates[0] && preferred.length > 0) {
      warnings.push({ message: `The document's security schemes (${preferred.join(', ')}) have no supported kind (apiKey, http bearer/basic, oauth2 client credentials): auth is none unless auth_scheme is given` });
    }
  }
  const auth: Omit<AuthConfig, 'value_fingerprint'> = { ...chosen, credential_source, inferred };
  switch (auth.scheme) {
    case 'none':
      return { auth: { ...auth, header: null, query_param: null, token_url: null, scopes: [] }, warnings };
    case 'apiKey':
      if (settings.auth_query_param) return { auth: { ...auth, query_param: settings.auth_query_param, header: null }, warnings };
      if (settings.auth_header) return { auth: { ...auth, header: settings.auth_header, query_param: null }, warnings };
      return { auth: auth.query_param ? auth : { ...auth, header: auth.header ?? 'Authorization' }, warnings };
    case 'bearer':
    case 'basic':
      return { auth: { ...auth, header: settings.auth_header ?? 'Authorization', query_param: null, token_url: null }, warnings };
    case 'oauth2': {
      const tokenUrl = settings.auth_token_url ?? auth.token_url;
      if (!tokenUrl) {
        throw badRequest('auth_scheme oauth2 needs a client-credentials token URL: the document declares none (securitySchemes flows.clientCredentials.tokenUrl); give auth_token_url', 'AUTH_INVALID');
      }
      return { auth: { ...auth, header: settings.auth_header ?? 'Authorization', query_param: null, token_url: absoluteTokenUrl(tokenUrl, sourceUrl) }, warnings };
    }
  }
}
