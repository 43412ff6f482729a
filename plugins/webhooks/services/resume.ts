// Signed resume: a signed POST delivers a signal to a workflow execution.
// Checks run in this order — payload validity
// (Content-Type application/json, else 415; then the body, else 422), size,
// signature, timestamp, idempotency, rate limit — and the first failure answers.
//
// Two signature schemes: X-Webhook-* (HMAC of the body only) and
// Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature: HMAC of
// `id.timestamp.body`), both keyed with the tenant's own signing secret only:
// the deployment-wide WEBHOOK_SECRET is never a resume key (one secret for
// every tenant would let any holder sign for all of them).
//
// Replay: the X-Webhook-* HMAC does not cover its id or timestamp, so a captured
// request could be sent again with fresh ones. The idempotency step therefore
// also refuses a signature accepted before (409, WEBHOOK_SIGNATURE_REPLAYED),
// for the freshness window plus the retention (24 h by default).
//
// What records state: only a request that passes signature and timestamp
// touches the tables, in one tenant transaction that claims its id, records
// its signature and takes one unit of the tenant's per-minute budget. A 409
// or 429 rolls all back (a sender that retries later is not told "duplicate");
// a request whose signal is not delivered (404, or an error) gives its id and
// signature back but keeps its budget unit (it made the platform work).
// Nothing before the signature check writes, so an unauthenticated caller
// cannot burn a tenant's budget or ids.
import { createHash } from 'node:crypto';
import type { CoreServices } from 'agent-platform/sdk';
import type { WorkflowsApi } from '../../workflows/api.ts';
import { webhookErrors, MAX_BODY_BYTES } from '../errors.ts';
import { assertFresh, headerOf, IDEMPOTENCY_WINDOW_SECONDS, isJsonContentType, webhookIdOf, type Headers } from '../signing/checks.ts';
import { TIMESTAMP_TOLERANCE_SECONDS, verifySignature } from '../signing/signing.ts';
import { signingSecretContext } from './webhooks.ts';
import { deliveriesStore, rateStore, signingSecretsStore } from '../store/webhooks.ts';
import { resumeBody } from '../schemas.ts';

export const RESUME_SCOPE = 'resume';
const MINUTE_MS = 60_000;

export interface ResumeRequest {
  eventType: string;
  /** The raw body bytes, as signed by the sender. */
  body: Buffer;
  headers: Headers;
}

export interface ResumeOptions {
  /** How long an accepted signature stays refused past the freshness window, in hours (at least 24). */
  signatureRetentionHours?: number;
  /** Accepted requests per tenant per calendar minute (spec: 60). */
  rateLimitPerMinute: number;
  /** The workflows plugin's API, looked up when needed. */
  workflows: () => WorkflowsApi;
  /** Epoch milliseconds; injectable so tests can move time. */
  now?: () => number;
}

interface ResumeBody {
  tenant_id: string;
  workflow_id: string;
  event_data: Record<string, unknown>;
}

/** Payload validity: declared as JSON (415 otherwise), JSON, an object with the required fields (422 otherwise). */
function parseBody(body: Buffer, headers: Headers): ResumeBody {
  if (!isJsonContentType(headers)) throw webhookErrors.unsupportedMediaType();
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw webhookErrors.invalidBody();
  }
  const { value, error } = resumeBody.validate(parsed);
  if (error) throw webhookErrors.invalidBody();
  return value as ResumeBody;
}

function isForeignKeyViolation(err: unknown): boolean {
  return (err as { code?: string }).code === '23503';
}

export function createResumeService(core: Pick<CoreServices, 'withTenant' | 'secrets' | 'logger'>, options: ResumeOptions) {
  const { withTenant, secrets, logger } = core;
  const now = options.now ?? Date.now;
  const replayBlockMs = (TIMESTAMP_TOLERANCE_SECONDS + (options.signatureRetentionHours ?? 24) * 3600) * 1000;

  return {
    async resume(request: ResumeRequest): Promise<{ status: 'delivered'; workflow_id: string }> {
      const nowMs = now();
      const input = parseBody(request.body, request.headers);
      if (request.body.length > MAX_BODY_BYTES) throw webhookErrors.tooLarge();
      const tenantId = input.tenant_id;
      const receivedAt = new Date(nowMs);
      let accepted: { webhookId: string; signatureHash: string };
      try {
        accepted = await withTenant(tenantId, async (trx) => {
          // The tenant's own secret only: without one, nothing verifies (401).
          const sealed = await signingSecretsStore.sealed(trx);
          const key = sealed ? Buffer.from(secrets.open(sealed, signingSecretContext(tenantId)), 'utf8') : undefined;
          const verified = key ? verifySignature(key, request.body, (name) => headerOf(request.headers, name)) : null;
          if (!verified) throw webhookErrors.invalidSignature();
          assertFresh(verified.timestamp, nowMs);
          // A missing id is reported by the step that needs it, as a missing
          // timestamp is: after authentication, so it tells an unsigned caller nothing.
          const webhookId = webhookIdOf(request.headers, verified.scheme === 'standard' ? 'webhook-id' : 'x-webhook-id');
          // A hash of the HMAC, not the HMAC: the table never holds a usable signature.
          const signatureHash = createHash('sha256').update(verified.mac).digest('hex');
          const windowStart = Math.floor(nowMs / MINUTE_MS) * MINUTE_MS;
          const admitted = await rateStore.claimAndTake(
            trx,
            { tenantId, scope: RESUME_SCOPE, webhookId, at: receivedAt, windowSeconds: IDEMPOTENCY_WINDOW_SECONDS },
            { hash: signatureHash, expiresAt: new Date(nowMs + replayBlockMs) },
            { windowStart: new Date(windowStart), limit: options.rateLimitPerMinute },
          );
          if (!admitted.claimed) throw webhookErrors.duplicate();
          // Thrown inside the transaction: the claims roll back with it.
          if (!admitted.unused) throw webhookErrors.replayed();
          if (!admitted.taken) throw webhookErrors.rateLimited(Math.ceil((windowStart + MINUTE_MS - nowMs) / 1000));
          return { webhookId, signatureHash };
        });
      } catch (err) {
        // The claim's foreign key: no such tenant, so no such execution either.
        if (isForeignKeyViolation(err)) throw webhookErrors.workflowNotFound(input.workflow_id);
        throw err;
      }

      let delivered = false;
      try {
        delivered = await options.workflows().signal(tenantId, input.workflow_id, {
          event_type: request.eventType,
          data: input.event_data,
          sender: 'webhook',
        });
      } finally {
        if (!delivered) {
          await withTenant(tenantId, async (trx) => {
            await deliveriesStore.release(trx, RESUME_SCOPE, accepted.webhookId, receivedAt);
            await deliveriesStore.releaseSignature(trx, accepted.signatureHash, receivedAt);
          }).catch((err: unknown) => logger.warn({ err, tenantId }, 'could not release the webhook id of an undelivered signal'));
        }
      }
      if (!delivered) throw webhookErrors.workflowNotFound(input.workflow_id);
      return { status: 'delivered', workflow_id: input.workflow_id };
    },
  };
}

export type ResumeService = ReturnType<typeof createResumeService>;
