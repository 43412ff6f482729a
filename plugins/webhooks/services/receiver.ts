// The event webhook receiver: an external POST becomes a
// `webhook.received` event of the tenant. Authentication comes first, so an
// unauthenticated caller learns nothing about the tenant or the body:
//   1. X-Webhook-Secret against the definition's hashed secret when the tenant
//      has a definition of that name, else against WEBHOOK_SECRET; neither → 503,
//      no match → 401 (both compared in constant time);
//   2. with both X-Webhook-Timestamp and X-Webhook-Id: freshness (±5 min);
//   3. the body must be JSON (any JSON);
//   4. unknown tenant → 404;
//   5. with both headers: idempotency (409 within 10 min), recorded in the same
//      transaction as the event, so an id is kept exactly when its event is.
import { randomUUID } from 'node:crypto';
import { type CoreServices, notFound, secretMatches } from 'agent-platform/sdk';
import { webhookErrors } from '../errors.ts';
import { assertFresh, headerOf, IDEMPOTENCY_WINDOW_SECONDS, webhookIdOf, type Headers } from '../signing/checks.ts';
import { sameSecret } from '../signing/signing.ts';
import { definitionsStore, deliveriesStore } from '../store/webhooks.ts';

export const RECEIVED_EVENT = 'webhook.received';
export const eventScope = (name: string) => `event:${name}`;

export interface ReceiveRequest {
  tenantId: string;
  name: string;
  body: Buffer;
  headers: Headers;
}

export interface ReceiverOptions {
  sharedSecret?: string;
  now?: () => number;
}

/** Any JSON; an empty body is `{}`. A JSON value that is not an object is kept under `body`, since event data is an object. */
function eventData(body: Buffer): Record<string, unknown> {
  const text = body.toString('utf8');
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw webhookErrors.invalidJson();
  }
  return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : { body: parsed };
}

export function createReceiverService(core: Pick<CoreServices, 'withTenant' | 'events' | 'tenants'>, options: ReceiverOptions) {
  const { withTenant, events, tenants } = core;
  const now = options.now ?? Date.now;

  return {
    async receive(request: ReceiveRequest): Promise<{ status: 'accepted'; event_id: string }> {
      const { tenantId, name, headers } = request;
      const nowMs = now();
      const eventId = randomUUID();
      // Read before the transaction (core's directory, its own connection); refused in the same order as ever.
      const tenantExists = await tenants.exists(tenantId);
      await withTenant(tenantId, async (trx) => {
        const given = headerOf(headers, 'x-webhook-secret');
        const hash = await definitionsStore.secretHash(trx, name);
        if (hash) {
          if (!given || !secretMatches(given, hash)) throw webhookErrors.invalidSecret();
        } else if (!options.sharedSecret) {
          throw webhookErrors.noSecretConfigured();
        } else if (!given || !sameSecret(given, options.sharedSecret)) {
          throw webhookErrors.invalidSecret();
        }
        const replayChecked = headerOf(headers, 'x-webhook-timestamp') !== undefined && headerOf(headers, 'x-webhook-id') !== undefined;
        if (replayChecked) assertFresh(headerOf(headers, 'x-webhook-timestamp'), nowMs);
        const webhookId = replayChecked ? webhookIdOf(headers) : undefined;
        const data = eventData(request.body);
        if (!tenantExists) throw notFound(`Tenant not found: ${tenantId}`, 'TENANT_NOT_FOUND');
        if (webhookId && !(await deliveriesStore.claim(trx, tenantId, eventScope(name), webhookId, new Date(nowMs), IDEMPOTENCY_WINDOW_SECONDS))) {
          throw webhookErrors.duplicate();
        }
        await events.emit(trx, tenantId, { id: eventId, type: RECEIVED_EVENT, source: `/webhooks/${name}`, data });
      });
      return { status: 'accepted', event_id: eventId };
    },
  };
}

export type ReceiverService = ReturnType<typeof createReceiverService>;
