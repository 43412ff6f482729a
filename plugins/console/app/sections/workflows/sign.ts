// Signs a signed-resume request the Standard Webhooks way, in the browser
// (WebCrypto): HMAC-SHA256 of `id.timestamp.body` keyed with the tenant's
// signing secret as its UTF-8 bytes, sent as `webhook-signature: v1,<base64>`.
// The secret stays in the page: only the signature leaves it.

export interface SignedResume {
  url: string;
  body: string;
  headers: Record<string, string>;
}

function base64(bytes: ArrayBuffer): string {
  let binary = '';
  for (const byte of new Uint8Array(bytes)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Whether this page may sign (WebCrypto exists only in a secure context: https or loopback). */
export function canSign(): boolean {
  return typeof crypto !== 'undefined' && crypto.subtle !== undefined;
}

export async function signResume(options: {
  secret: string; tenant: string; executionId: string; eventType: string; eventData: Record<string, unknown>; now?: Date;
}): Promise<SignedResume> {
  const body = JSON.stringify({ tenant_id: options.tenant, workflow_id: options.executionId, event_data: options.eventData });
  const id = `console-${crypto.randomUUID()}`;
  const timestamp = String(Math.floor((options.now ?? new Date()).getTime() / 1000));
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey('raw', encoder.encode(options.secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = await crypto.subtle.sign('HMAC', key, encoder.encode(`${id}.${timestamp}.${body}`));
  return {
    url: `/api/webhooks/${encodeURIComponent(options.eventType)}`,
    body,
    headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${base64(mac)}` },
  };
}

/** Sends a signed resume (a public route: no bearer token); the status and the answer's body. */
export async function sendResume(signed: SignedResume): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(new URL(signed.url, location.origin), {
    method: 'POST', headers: signed.headers, body: signed.body, credentials: 'omit', cache: 'no-store',
  });
  const text = await response.text();
  let body: Record<string, unknown> = {};
  try { body = text ? JSON.parse(text) as Record<string, unknown> : {}; } catch { body = { message: text }; }
  return { status: response.status, body };
}
