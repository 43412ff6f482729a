// The outbox routes under /api/admin/outbox: the tenant's admins list its
// e-mail and put held or dead messages back in line.
import { tenantOf, type ServerRoute } from 'agent-platform/sdk';
import * as s from '../schemas.ts';
import type { OutboxService } from '../services/outbox.ts';
import type { OutboxFilter } from '../store/outbox.ts';

const admin = { tenant: 'required', role: 'admin' } as const;
const tags = ['api', 'mail'];

type ListQuery = OutboxFilter & { skip: number; limit: number };

export function outboxRoutes(outbox: OutboxService, configured: boolean): ServerRoute[] {
  return [
    {
      method: 'GET', path: '/api/admin/outbox',
      options: {
        auth: 'bearer', tags, description: 'List the tenant\'s outgoing e-mail, newest first (admin)',
        notes: 'Filter by state (held, pending, sending, failed, sent, dead) and origin; paged with skip and limit. Bodies are not listed.',
        plugins: { platform: admin }, validate: { query: s.listQuery }, response: { schema: s.messageList },
      },
      handler: async (request) => {
        const { skip, limit, ...filter } = request.query as unknown as ListQuery;
        return { ...(await outbox.list(tenantOf(request), filter, skip, limit)), skip, limit, configured };
      },
    },
    {
      method: 'POST', path: '/api/admin/outbox/{id}/retry',
      options: {
        auth: 'bearer', tags, description: 'Send a held or dead e-mail again, its attempts counted from zero (admin)',
        notes: '409 OUTBOX_NOT_RETRYABLE for a message in another state, 409 MAIL_NOT_CONFIGURED while no SMTP transport is configured; 404 for another tenant\'s message.',
        plugins: { platform: admin }, validate: { params: s.idParam }, response: { schema: s.message },
      },
      handler: (request) => outbox.retry(tenantOf(request), (request.params as { id: number }).id),
    },
  ];
}
