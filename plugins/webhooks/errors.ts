// The webhook errors: each detail text is a fixed message (the README's
// table), word for word; the codes are stable.
import { domainError } from 'agent-platform/sdk';

export const MAX_BODY_BYTES = 1024 * 1024;

export const webhookErrors = {
  invalidBody: () => domainError(422, 'Invalid request body', 'WEBHOOK_INVALID_BODY'),
  tooLarge: () => domainError(413, 'Payload too large (max 1MB)', 'WEBHOOK_PAYLOAD_TOO_LARGE'),
  invalidSignature: () => domainError(401, 'Invalid signature', 'WEBHOOK_INVALID_SIGNATURE'),
  timestampTooOld: () => domainError(401, 'Timestamp too old', 'WEBHOOK_TIMESTAMP_TOO_OLD'),
  timestampInFuture: () => domainError(401, 'Timestamp is in the future', 'WEBHOOK_TIMESTAMP_IN_FUTURE'),
  missingId: () => domainError(400, 'Missing webhook id', 'WEBHOOK_ID_MISSING'),
  invalidId: (max: number) => domainError(400, `Invalid webhook id (at most ${max} printable characters)`, 'WEBHOOK_ID_INVALID'),
  duplicate: () => domainError(409, 'Duplicate webhook', 'WEBHOOK_DUPLICATE'),
  // Signed resume: a signature accepted before, sent again under another id (the duplicate's 409 text, a code of its own).
  replayed: () => domainError(409, 'Duplicate webhook', 'WEBHOOK_SIGNATURE_REPLAYED'),
  // Signed resume: part of the payload-validity check (Content-Type must be application/json).
  unsupportedMediaType: () => domainError(415, 'Content-Type must be application/json', 'WEBHOOK_UNSUPPORTED_MEDIA_TYPE'),
  rateLimited: (retryAfterSeconds: number) => {
    const error = domainError(429, 'Rate limit exceeded', 'WEBHOOK_RATE_LIMITED');
    error.output.headers['Retry-After'] = String(retryAfterSeconds);
    return error;
  },
  workflowNotFound: (id: string) => domainError(404, `Workflow not found: ${id}`, 'WORKFLOW_NOT_FOUND'),
  // The event receiver: 401 when no secret matches, 503 when none is configured.
  invalidSecret: () => domainError(401, 'Invalid webhook secret', 'WEBHOOK_INVALID_SECRET'),
  noSecretConfigured: () =>
    domainError(503, 'No secret is configured for this webhook (define it, or set WEBHOOK_SECRET)', 'WEBHOOK_SECRET_NOT_CONFIGURED'),
  invalidJson: () => domainError(400, 'The body must be JSON', 'WEBHOOK_INVALID_JSON'),
};
