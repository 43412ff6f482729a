// Where the signed-in session lives: sessionStorage only (this tab, until it
// closes or the person signs out), never localStorage, never the URL.
export interface StoredSession {
  token: string;
  /** The tenant picked last (X-Tenant-ID). */
  tenant: string | null;
  /** How the person signed in: `token`, `link` or `oidc`. */
  method: 'token' | 'link' | 'oidc';
}

const KEY = 'console.session';

export function loadSession(): StoredSession | null {
  try {
    const value = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as StoredSession | null;
    return value && typeof value.token === 'string' ? value : null;
  } catch {
    return null;
  }
}

export function saveSession(session: StoredSession): void {
  sessionStorage.setItem(KEY, JSON.stringify(session));
}

export function clearSession(): void {
  sessionStorage.removeItem(KEY);
}
