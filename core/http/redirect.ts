// How a redirect is followed, the one rule for every outbound client that
// follows redirects itself (the guarded fetch, and plugins that follow them
// by hand to drop their own credentials, e.g. integrations' HTTP client).
export const MAX_REDIRECTS = 5;

/** Headers that always carry credentials: never sent on to another origin. */
export const CREDENTIAL_HEADERS: readonly string[] = ['authorization', 'cookie', 'proxy-authorization'];

/** The answer asks to go elsewhere: a redirect status with a Location. */
export function isRedirect(status: number, location: string | null | undefined): location is string {
  return [301, 302, 303, 307, 308].includes(status) && Boolean(location);
}

/**
 * The next hop of a redirect, as browsers follow it: 303, and 301/302 after a
 * POST, continue as a GET without a body (`keepBody` false; the content type
 * is dropped from `headers`); a hop to another origin loses the credential
 * headers (CREDENTIAL_HEADERS and `moreCredentials`). Changes `headers` in place.
 */
export function followRedirect(
  from: URL, method: string, status: number, location: string, headers: Headers, moreCredentials: readonly string[] = [],
): { url: URL; method: string; keepBody: boolean } {
  const url = new URL(location, from);
  const asGet = status === 303 || ((status === 301 || status === 302) && method === 'POST');
  if (asGet) headers.delete('content-type');
  if (url.origin !== from.origin) for (const name of [...CREDENTIAL_HEADERS, ...moreCredentials]) headers.delete(name);
  return { url, method: asGet ? 'GET' : method, keepBody: !asGet };
}
