// The checks every embed surface shares: the client is configured and
// enabled, and the request's Origin is one the client allowlisted.
import { badRequest, forbidden, notFound, requestOrigin } from 'agent-platform/sdk';
import type { EmbedClient } from './cache/client-cache.ts';

/** The request's Origin, normalized: 400 when missing or malformed. */
export function requireOrigin(header: unknown): string {
  const origin = requestOrigin(header);
  if (origin === undefined) throw badRequest('The Origin header is required', 'ORIGIN_REQUIRED');
  if (origin === null) throw badRequest('The Origin header is malformed', 'INVALID_ORIGIN');
  return origin;
}

/** 403 unless the client allowlisted the origin. */
export function requireAllowed(client: EmbedClient, origin: string): string {
  if (!client.allowedOrigins.has(origin)) throw forbidden(`Origin ${origin} is not allowed for this client`, 'ORIGIN_NOT_ALLOWED');
  return origin;
}

/** 404 for a client without an embed configuration, 403 when embedding is disabled. */
export function enabledClient(client: EmbedClient | null, name: string | number): EmbedClient {
  if (!client) throw notFound(`Client not found: ${name}`, 'CLIENT_NOT_FOUND');
  if (!client.enabled) throw forbidden('Embedding is disabled for this client', 'EMBED_DISABLED');
  return client;
}
