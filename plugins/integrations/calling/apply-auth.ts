// How a credential goes on the wire, by scheme: apiKey sends the
// raw value in its header (or query parameter), bearer prefixes `Bearer `,
// basic base64-encodes `user:pass`, oauth2 sends the client-credentials
// access token as a bearer token. A value that already carries its prefix
// is sent as it is.
import type { AuthConfig } from '../openapi/model.ts';
import type { ResolvedCredential } from './credentials.ts';

export interface AuthPlacement {
  headers: [string, string][];
  query: [string, string][];
}

const NOTHING: AuthPlacement = { headers: [], query: [] };

export function placeAuth(auth: AuthConfig, credential: ResolvedCredential | undefined, oauthToken?: string): AuthPlacement {
  if (!credential || auth.scheme === 'none') return NOTHING;
  const header = credential.header ?? auth.header ?? 'Authorization';
  switch (auth.scheme) {
    case 'apiKey':
      if (!credential.header && auth.query_param) return { headers: [], query: [[auth.query_param, credential.value]] };
      return { headers: [[header, credential.value]], query: [] };
    case 'bearer':
      return { headers: [[header, /^bearer\s/i.test(credential.value) ? credential.value : `Bearer ${credential.value}`]], query: [] };
    case 'basic': {
      const value = /^basic\s/i.test(credential.value) ? credential.value : `Basic ${Buffer.from(credential.value, 'utf8').toString('base64')}`;
      return { headers: [[header, value]], query: [] };
    }
    case 'oauth2':
      return oauthToken ? { headers: [[header, `Bearer ${oauthToken}`]], query: [] } : NOTHING;
  }
}
