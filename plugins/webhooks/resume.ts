// Signed resume (spec 4.5, 7, 8): a signed POST delivers a signal to a
// workflow execution. Checks run in the spec's order — payload validity, size,
// signature, timestamp, idempotency, rate limit — and the first failure answers.
//
// What records state: only a request that passes signature and timestamp
// touches the tables, in one tenant transaction that claims its X-Webhook-Id
// and takes one unit of the tenant's per-minute budget. A 429 rolls both back
// (a sender that retries later is not told "duplicate"); a request whose signal
// is not delivered (404, or an error) gives its id back but keeps its budget
// unit (it made the platform work). Nothing before the signature check writes,
// so an unauthenticated caller cannot burn a tenant's budget or ids.
import type { CoreServices } from '../../core/plugin-contract.ts';
import type { WorkflowsApi } from '../workflows/api.ts';
import { webhookErrors, MAX_BODY_BYTES } from './errors.ts';
import { assertFresh, headerOf, IDEMPOTENCY_WINDOW_SECONDS, webhookIdOf, type Headers } from './checks.ts';
import { signatureMatches } from './signing.ts';
import { signingSecretContext } from './service.ts';
import { deliveriesStore, rateStore, signingSecretsStore } from './store.ts';
import { resumeBody } from './schemas.ts';

export const RESUME_SCOPE = 'resume';
const MINUTE_MS = 60_000;

export interface ResumeRequest {
  eventType: string;
  /** The raw body bytes, as signed by the sender. */
  body: Buffer;
  headers: Headers;
}

export interface ResumeOptions {
  /** The shared fallback secret (WEBHOOK_SECRET), for tenants without their own. */
  sharedSecret?: string;
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

/** Payload validity: JSON, an object with the required fields (422 otherwise). */
function parseBody(body: Buffer): ResumeBody {
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

  return {
    async resume(request: ResumeRequest): Promise<{ status: 'delivered'; workflow_id: string }> {
      const nowMs = now();
      const input = parseBody(request.body);
      if (request.body.length > MAX_BODY_BYTES) throw webhookErrors.tooLarge();
      const tenantId = input.tenant_id;
      const receivedAt = new Date(nowMs);
      let webhookId: string;
      try {
        webhookId = await withTenant(tenantId, async (trx) => {
          // The tenant's own secret when it has one; the shared secret only otherwise.
          const sealed = await signingSecretsStore.sealed(trx);
          const secret = sealed ? secrets.open(sealed, signingSecretContext(tenantId)) : options.sharedSecret;
          if (!secret || !signatureMatches(secret, request.body, headerOf(request.headers, 'x-webhook-signature'))) {
            throw webhookErrors.invalidSignature();
          }
          assertFresh(headerOf(request.headers, 'x-webhook-timestamp'), nowMs);
          // A missing id is reported by the step that needs it, as a missing
          // timestamp is: after authentication, so it tells an unsigned caller nothing.
          const id = webhookIdOf(request.headers);
          const windowStart = Math.floor(nowMs / MINUTE_MS) * MINUTE_MS;
          const admitted = await rateStore.claimAndTake(
            trx,
            { tenantId, scope: RESUME_SCOPE, webhookId: id, at: receivedAt, windowSeconds: IDEMPOTENCY_WINDOW_SECONDS },
            { windowStart: new Date(windowStart), limit: options.rateLimitPerMinute },
          );
          if (!admitted.claimed) throw webhookErrors.duplicate();
          // Thrown inside the transaction: the claim rolls back with it.
          if (!admitted.taken) throw webhookErrors.rateLimited(Math.ceil((windowStart + MINUTE_MS - nowMs) / 1000));
          return id;
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
          await withTenant(tenantId, (trx) => deliveriesStore.release(trx, RESUME_SCOPE, webhookId, receivedAt)).catch((err: unknown) =>
            logger.warn({ err, tenantId }, 'could not release the webhook id of an undelivered signal'));
        }
      }
      if (!delivered) throw webhookErrors.workflowNotFound(input.workflow_id);
      return { status: 'delivered', workflow_id: input.workflow_id };
    },
  };
}

export type ResumeService = ReturnType<typeof createResumeService>;
