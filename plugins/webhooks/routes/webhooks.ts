// The webhooks REST routes: admin CRUD of definitions and the signing secret
// (bearer, tenant admin for writes), and the two public receivers, which
// authenticate in their services because both need the raw body bytes.
import type { Lifecycle, ServerRoute } from '@hapi/hapi';
import Boom from '@hapi/boom';
import { tenantOf } from 'agent-platform/sdk';
import type { WebhooksService } from '../services/webhooks.ts';
import type { ResumeService } from '../services/resume.ts';
import type { ReceiverService } from '../services/receiver.ts';
import { MAX_BODY_BYTES, webhookErrors } from '../errors.ts';
import * as s from '../schemas.ts';

const admin = { tenant: 'required', role: 'admin' } as const;
const tags = ['api', 'webhooks'];

/**
 * hapi reads a little past 1 MB, so that a body just over the limit is still
 * parsed and the check order holds (payload validity before size: a malformed
 * 1.01 MB body is a 422). Beyond that it stops reading; the 413 it then raises
 * carries the same text too.
 */
const READ_LIMIT_BYTES = MAX_BODY_BYTES + 64 * 1024;
const tooLargeInOurWords: Lifecycle.FailAction = (_request, _h, err) => {
  if (Boom.isBoom(err as Error) && (err as Boom.Boom).output.statusCode === 413) throw webhookErrors.tooLarge();
  // The core's `allow: application/json` refuses other types before the
  // service sees them (first, as payload validity comes first): in our words too.
  if (Boom.isBoom(err as Error) && (err as Boom.Boom).output.statusCode === 415) throw webhookErrors.unsupportedMediaType();
  throw err;
};

export function webhooksRoutes(service: WebhooksService, resume: ResumeService, receiver: ReceiverService): ServerRoute[] {
  return [
    {
      method: 'POST', path: '/api/admin/webhooks',
      options: {
        auth: 'bearer', tags, description: 'Create an event webhook; its secret is shown only in this response',
        plugins: { platform: admin }, validate: { payload: s.createWebhook }, response: { schema: s.webhookWithSecret },
      },
      handler: async (request, h) => h.response(await service.create(tenantOf(request), request.payload as never)).code(201),
    },
    {
      method: 'GET', path: '/api/admin/webhooks',
      options: {
        auth: 'bearer', tags, description: 'List event webhooks (never their secrets)',
        plugins: { platform: admin }, response: { schema: s.webhookList },
      },
      handler: (request) => service.list(tenantOf(request)),
    },
    {
      method: 'POST', path: '/api/admin/webhooks/signing-secret',
      options: {
        auth: 'bearer', tags,
        description: 'Create (201) or rotate (200) the tenant\'s signing secret for signed resume; shown only in this response',
        plugins: { platform: admin }, response: { schema: s.signingSecret },
      },
      handler: async (request, h) => {
        const { created, ...secret } = await service.setSigningSecret(tenantOf(request));
        return h.response(secret).code(created ? 201 : 200);
      },
    },
    {
      method: 'GET', path: '/api/admin/webhooks/signing-secret',
      options: {
        auth: 'bearer', tags, description: 'Whether the tenant has its own signing secret (never the secret)',
        plugins: { platform: admin }, response: { schema: s.signingSecretStatus },
      },
      handler: (request) => service.signingSecretStatus(tenantOf(request)),
    },
    {
      method: 'GET', path: '/api/admin/webhooks/{name}',
      options: {
        auth: 'bearer', tags, description: 'Read an event webhook',
        plugins: { platform: admin }, validate: { params: s.nameParams }, response: { schema: s.webhook },
      },
      handler: (request) => service.get(tenantOf(request), (request.params as { name: string }).name),
    },
    {
      method: 'DELETE', path: '/api/admin/webhooks/{name}',
      options: {
        auth: 'bearer', tags, description: 'Delete an event webhook',
        plugins: { platform: admin }, validate: { params: s.nameParams },
      },
      handler: async (request, h) => {
        await service.remove(tenantOf(request), (request.params as { name: string }).name);
        return h.response().code(204);
      },
    },
    {
      method: 'POST', path: '/api/admin/webhooks/{name}/rotate',
      options: {
        auth: 'bearer', tags, description: 'Give an event webhook a new secret; the old one is invalid at once',
        plugins: { platform: admin }, validate: { params: s.nameParams }, response: { schema: s.webhookWithSecret },
      },
      handler: (request) => service.rotate(tenantOf(request), (request.params as { name: string }).name),
    },
    {
      method: 'POST', path: '/api/webhooks/events/{tenant_id}/{webhook_name}',
      options: {
        auth: false, tags,
        description: 'Receive an external webhook (X-Webhook-Secret); any JSON body becomes the data of a webhook.received event',
        notes: 'X-Webhook-Secret: the webhook definition\'s secret, or WEBHOOK_SECRET when the tenant has no definition of that name. '
          + 'With X-Webhook-Timestamp and X-Webhook-Id both present, freshness (5 minutes) and idempotency (10 minutes) are checked.',
        // Third-party senders label JSON in many ways: the body is read as JSON
        // whatever its content type (the override only silences hapi's 415).
        payload: { parse: false, output: 'data', override: 'application/json' },
        validate: { params: s.receiverParams }, response: { schema: s.received },
      },
      handler: async (request, h) => {
        const { tenant_id: tenantId, webhook_name: name } = request.params as { tenant_id: string; webhook_name: string };
        const body = (request.payload as Buffer | null) ?? Buffer.alloc(0);
        return h.response(await receiver.receive({ tenantId, name, body, headers: request.headers })).code(202);
      },
    },
    {
      method: 'POST', path: '/api/webhooks/{event_type}',
      options: {
        auth: false, tags, description: 'Signed resume: deliver a signal to a waiting workflow execution (HMAC headers)',
        // Checked by the service in its fixed order, not by joi (which would answer first, with other statuses).
        notes: [
          'Recommended: Standard Webhooks headers webhook-id, webhook-timestamp, webhook-signature: v1,<base64 HMAC-SHA256 of '
            + '"id.timestamp.body" keyed with the tenant signing secret (whsec_ + base64 of its text)>.',
          'Or X-Webhook-*: X-Webhook-Signature: sha256=<hex HMAC-SHA256 of the raw body with the tenant signing secret>, '
            + 'X-Webhook-Timestamp: <Unix seconds, within 5 minutes>, X-Webhook-Id: <idempotency key, 10 minutes>.',
          'Content-Type: application/json. Body: {tenant_id, workflow_id (the execution id), event_data?}. '
            + 'Errors: 415, 422, 413, 401, 400, 409 (repeated id or replayed signature), 429, 404.',
        ],
        payload: { parse: false, output: 'data', maxBytes: READ_LIMIT_BYTES, failAction: tooLargeInOurWords },
        validate: { params: s.resumeParams }, response: { schema: s.delivered },
      },
      handler: async (request, h) => {
        const body = (request.payload as Buffer | null) ?? Buffer.alloc(0);
        const eventType = (request.params as { event_type: string }).event_type;
        return h.response(await resume.resume({ eventType, body, headers: request.headers })).code(202);
      },
    },
  ];
}
