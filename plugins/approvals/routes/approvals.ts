// The approvals REST routes under /api/approvals (approvers are not
// necessarily admins: any member of the tenant reaches them, the service
// decides what each may see and do), and the public decision link pages.
import { principalOf, tenantOf, type ServerRoute, type SharedRateLimiter } from 'agent-platform/sdk';
import { confirmPage, decidedPage } from '../links/page.ts';
import * as s from '../schemas.ts';
import type { ApprovalsService, ListFilter } from '../services/approvals.ts';

const member = { tenant: 'required' } as const;
const tags = ['api', 'approvals'];

type ListQuery = ListFilter & { skip: number; limit: number };
type DecisionInput = { decision: 'approve' | 'reject'; comment?: string | null };

export function approvalsRoutes(service: ApprovalsService, rateLimit: SharedRateLimiter): ServerRoute[] {
  const id = (request: { params: Record<string, unknown> }) => request.params.id as string;
  return [
    {
      method: 'POST', path: '/api/approvals',
      options: {
        auth: 'bearer', tags, description: 'Open an approval case directly (admin or service token); emits approval.created',
        notes: 'With links: true the answer carries one-time decision links (approve_url, reject_url) per approver known to the users directory.',
        plugins: { platform: { ...member, role: 'admin' } }, validate: { payload: s.newCase }, response: { schema: s.createdView },
      },
      handler: async (request, h) => h.response(await service.create(tenantOf(request), principalOf(request), request.payload as never)).code(201),
    },
    {
      method: 'GET', path: '/api/approvals',
      options: {
        auth: 'bearer', tags, description: 'Approval cases the caller may decide (an admin: all, unless mine=true), newest first',
        plugins: { platform: member }, validate: { query: s.listQuery }, response: { schema: s.caseList },
      },
      handler: async (request) => {
        const { skip, limit, ...filter } = request.query as unknown as ListQuery;
        return { ...(await service.list(tenantOf(request), principalOf(request), filter, skip, limit)), skip, limit };
      },
    },
    {
      method: 'GET', path: '/api/approvals/{id}',
      options: {
        auth: 'bearer', tags, description: 'Read an approval case (admins, its requester and its approvers)',
        plugins: { platform: member }, validate: { params: s.idParam }, response: { schema: s.caseView },
      },
      handler: (request) => service.get(tenantOf(request), principalOf(request), id(request)),
    },
    {
      method: 'POST', path: '/api/approvals/{id}/decision',
      options: {
        auth: 'bearer', tags, description: 'Approve or reject (an eligible approver, once; 403 NOT_AN_APPROVER otherwise; 409 once resolved)',
        plugins: { platform: member }, validate: { params: s.idParam, payload: s.decision }, response: { schema: s.caseView },
      },
      handler: (request) => {
        const { decision, comment } = request.payload as DecisionInput;
        return service.decide(tenantOf(request), principalOf(request), id(request), decision, comment);
      },
    },
    {
      method: 'POST', path: '/api/approvals/{id}/cancel',
      options: {
        auth: 'bearer', tags, description: 'Cancel a pending case (admin or requester); emits approval.resolved with status cancelled',
        plugins: { platform: member }, validate: { params: s.idParam }, response: { schema: s.caseView },
      },
      handler: (request) => service.cancel(tenantOf(request), principalOf(request), id(request)),
    },
    {
      method: 'GET', path: '/api/approvals/links/{token}',
      options: {
        auth: false, tags, description: 'A decision link: a confirmation page (HTML) whose form POSTs the decision; opening it decides nothing',
        validate: { params: s.linkParam },
      },
      handler: async (request, h) => {
        await rateLimit.take(request.info.remoteAddress);
        const view = await service.linkPage(request.params.token as string);
        return h.response(confirmPage(view)).type('text/html; charset=utf-8').header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
      },
    },
    {
      method: 'POST', path: '/api/approvals/links/{token}',
      options: {
        auth: false, tags, description: 'Use a decision link (once): records its approver\'s decision; answers a short HTML page',
        // The confirmation page's form posts urlencoded; JSON is taken too.
        payload: { allow: ['application/x-www-form-urlencoded', 'application/json'], maxBytes: 16 * 1024 },
        validate: { params: s.linkParam, payload: s.linkForm },
      },
      handler: async (request, h) => {
        await rateLimit.take(request.info.remoteAddress);
        const form = request.payload as { comment?: string } | null;
        const view = await service.decideByLink(request.params.token as string, form?.comment);
        return h.response(decidedPage(view)).type('text/html; charset=utf-8').header('cache-control', 'no-store');
      },
    },
  ];
}
