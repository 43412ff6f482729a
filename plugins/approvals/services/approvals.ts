// Approval cases as the routes, GraphQL and the CLI see them: create, list,
// read, decide, cancel, and decisions by one-time link. Knows nothing of HTTP.
import {
  conflict, type CoreServices, forbidden, isUuid, type KeysetPage, notFound, type Principal, type TenantTransaction,
} from 'agent-platform/sdk';
import { assertMayDecide, deciderOf, eligible, isAdmin, maySee } from '../access.ts';
import type { ApprovalCase, Decision } from '../api.ts';
import type { Cases } from './cases.ts';
import { LINK_KEY_PURPOSE, linkUrl, signLink, verifyLink, type LinkClaims } from '../links/token.ts';
import type { ApprovalsOptions } from '../options.ts';
import { casesStore, directoryStore, linkUsesStore, type CaseFilter, type CaseKey } from '../store/approvals.ts';

const missing = (id: string) => notFound(`Approval case not found: ${id}`, 'APPROVAL_NOT_FOUND');

export interface ListFilter {
  status?: CaseFilter['status'];
  source_type?: CaseFilter['source_type'];
  mine?: boolean;
}

export interface CaseLinks {
  approver: string;
  approve_url: string;
  reject_url: string;
}

export function createApprovalsService(core: Pick<CoreServices, 'withTenant' | 'db' | 'secrets' | 'clock'>, cases: Cases, options: ApprovalsOptions) {
  const { withTenant } = core;
  const linkKey = core.secrets.deriveKey(LINK_KEY_PURPOSE);

  /** The case, locked, or a 404 (also for a malformed id: nothing to find). */
  async function locked(trx: TenantTransaction, id: string): Promise<ApprovalCase> {
    const row = isUuid(id) ? await casesStore.lock(trx, id) : undefined;
    if (!row) throw missing(id);
    return row;
  }

  /** Signed links for each approver the users directory knows (listed users, role holders). */
  async function linksFor(tenantId: string, row: ApprovalCase): Promise<CaseLinks[]> {
    const holders = await directoryStore.holders(core.db, tenantId, row.approvers);
    const e = Math.floor(row.expires_at.getTime() / 1000);
    const url = (a: string, d: LinkClaims['d']) => linkUrl(options.publicUrl, signLink(linkKey, { t: tenantId, c: row.id, a, d, e }));
    return holders.map((approver) => ({ approver, approve_url: url(approver, 'approve'), reject_url: url(approver, 'reject') }));
  }

  /** A link's claims while it may still be used (signed by us, not expired), else a 404 that says no more. */
  function claimsOf(token: string): LinkClaims {
    const claims = verifyLink(linkKey, token);
    if (!claims) throw notFound('This decision link is not valid', 'LINK_INVALID');
    if (claims.e * 1000 <= core.clock.now().getTime()) throw conflict('This decision link has expired', 'LINK_EXPIRED');
    return claims;
  }

  /** The store's filter of what the caller may list; undefined when it may list nothing. */
  function scope(tenantId: string, principal: Principal, filter: ListFilter): CaseFilter | undefined {
    let decidableBy: CaseFilter['decidableBy'];
    if (filter.mine || !isAdmin(principal, tenantId)) {
      const decider = deciderOf(principal, tenantId);
      if ('refused' in decider) return undefined;
      decidableBy = decider;
    }
    return { status: filter.status, source_type: filter.source_type, decidableBy };
  }

  const service = {
    linksOf: linksFor,

    /** POST /api/approvals: a case opened directly (source api), with decision links when asked. */
    async create(tenantId: string, principal: Principal, input: Record<string, unknown> & { links?: boolean }) {
      const { links, ...fields } = input;
      const row = await withTenant(tenantId, (trx) => cases.open(trx, tenantId, fields, { type: 'api' }, principal.sub));
      return links ? { ...row, links: await linksFor(tenantId, row) } : row;
    },

    /** Cases the caller may decide (an admin: all, unless `mine`), newest first. */
    async list(tenantId: string, principal: Principal, filter: ListFilter, skip: number, limit: number) {
      const scoped = scope(tenantId, principal, filter);
      if (!scoped) return { items: [], total: 0 };
      return withTenant(tenantId, (trx) => casesStore.list(trx, scoped, skip, limit));
    },

    /** A keyset page of what `list` lists (GraphQL; see casesStore.page). */
    async page(tenantId: string, principal: Principal, filter: ListFilter, page: KeysetPage<CaseKey>): Promise<ApprovalCase[]> {
      const scoped = scope(tenantId, principal, filter);
      return scoped ? withTenant(tenantId, (trx) => casesStore.page(trx, scoped, page)) : [];
    },

    /** How many cases `list` lists. */
    async count(tenantId: string, principal: Principal, filter: ListFilter): Promise<number> {
      const scoped = scope(tenantId, principal, filter);
      return scoped ? withTenant(tenantId, (trx) => casesStore.count(trx, scoped)) : 0;
    },

    async get(tenantId: string, principal: Principal, id: string): Promise<ApprovalCase> {
      const row = isUuid(id) ? await withTenant(tenantId, (trx) => casesStore.get(trx, id)) : undefined;
      if (!row || !maySee(row, principal, tenantId)) throw missing(id);
      return row;
    },

    /** GraphQL's nullable approval(id). */
    find: (tenantId: string, principal: Principal, id: string) => service.get(tenantId, principal, id).catch((err) => {
      if ((err as { output?: { statusCode: number } }).output?.statusCode === 404) return null;
      throw err;
    }),

    /** A person's decision (each approver once; 403 for anyone else; 409 once resolved). */
    decide: (tenantId: string, principal: Principal, id: string, decision: Decision['decision'], comment?: string | null) =>
      withTenant(tenantId, async (trx) => {
        const row = await locked(trx, id);
        const decider = assertMayDecide(row, principal, tenantId);
        return cases.decide(trx, tenantId, row, decider.sub, decision, comment ?? null, 'api');
      }),

    /** The CLI's decision on behalf of `sub` (the operator vouches; the users directory says whether sub is an approver). */
    async decideAs(tenantId: string, sub: string, id: string, decision: Decision['decision'], comment?: string | null, via: Decision['via'] = 'cli') {
      // The users directory is read first, on its own connection: never while the case's transaction holds one.
      const roles = await directoryStore.rolesOf(core.db, tenantId, sub);
      return withTenant(tenantId, async (trx) => {
        const row = await locked(trx, id);
        if (!roles || !eligible(row, { sub, roles })) {
          throw forbidden(`${sub} is not among the approvers of this case (or not a member of the tenant)`, 'NOT_AN_APPROVER');
        }
        return cases.decide(trx, tenantId, row, sub, decision, comment ?? null, via);
      });
    },

    /** Admin or requester; 409 once resolved. */
    cancel: (tenantId: string, principal: Principal, id: string) =>
      withTenant(tenantId, async (trx) => {
        const row = await locked(trx, id);
        if (!isAdmin(principal, tenantId) && row.requested_by !== principal.sub) {
          if (!maySee(row, principal, tenantId)) throw missing(id);
          throw forbidden('Only an admin or the requester may cancel an approval case', 'CANCEL_FORBIDDEN');
        }
        if (row.status !== 'pending') throw conflict(`The approval case is already ${row.status}`, 'APPROVAL_RESOLVED');
        return cases.settle(trx, tenantId, row, 'cancelled');
      }),

    /** What a valid link's page shows: the case's title and the decision, nothing more. */
    async linkPage(token: string) {
      const claims = claimsOf(token);
      const row = await withTenant(claims.t, (trx) => casesStore.get(trx, claims.c));
      if (!row) throw notFound('This decision link is not valid', 'LINK_INVALID');
      return { title: row.title, decision: claims.d, status: row.status };
    },

    /** The link's POST: decides once for its approver, if they still are one. */
    async decideByLink(token: string, comment?: string) {
      const claims = claimsOf(token);
      const roles = await directoryStore.rolesOf(core.db, claims.t, claims.a);
      return withTenant(claims.t, async (trx) => {
        const row = await casesStore.lock(trx, claims.c);
        if (!row) throw notFound('This decision link is not valid', 'LINK_INVALID');
        if (!(await linkUsesStore.claim(trx, claims.t, row.id, claims.a))) throw conflict('This decision link has already been used', 'LINK_USED');
        if (!roles || !eligible(row, { sub: claims.a, roles })) throw forbidden('The holder of this link is no longer an approver of the case', 'NOT_AN_APPROVER');
        const decided = await cases.decide(trx, claims.t, row, claims.a, claims.d, comment ?? null, 'link');
        return { title: decided.title, decision: claims.d, status: decided.status };
      });
    },

  };
  return service;
}

export type ApprovalsService = ReturnType<typeof createApprovalsService>;
