// Who may do what with a case. Deciding is for people: a user of the tenant
// listed among the approvers by subject or holding one of their roles in the
// tenant. The super-admin, service tokens and service accounts act as admins
// (create, list all, read, cancel) but never decide: an approval stands for a
// person's judgement, and those credentials stand for no person.
import { forbidden, rolesIn, type Principal } from 'agent-platform/sdk';
import type { ApprovalCase } from './api.ts';

export interface Decider {
  sub: string;
  roles: string[];
}

export function isAdmin(principal: Principal, tenantId: string): boolean {
  const roles = rolesIn(principal, tenantId);
  return roles === 'all' || roles.includes('admin');
}

/** The person a principal is, or the reason it cannot decide. */
export function deciderOf(principal: Principal, tenantId: string): Decider | { refused: string } {
  if (principal.kind !== 'user' || principal.serviceAccount) {
    return { refused: 'Only people decide approval cases: the super-admin, service tokens and service accounts cannot' };
  }
  const roles = rolesIn(principal, tenantId);
  return { sub: principal.sub, roles: roles === 'all' ? [] : roles };
}

export function eligible(row: Pick<ApprovalCase, 'approvers'>, decider: Decider): boolean {
  return (row.approvers.users ?? []).includes(decider.sub) || (row.approvers.roles ?? []).some((role) => decider.roles.includes(role));
}

/** The decider, when it may decide this case; else a 403 that says why. */
export function assertMayDecide(row: ApprovalCase, principal: Principal, tenantId: string): Decider {
  const decider = deciderOf(principal, tenantId);
  if ('refused' in decider) throw forbidden(decider.refused, 'NOT_AN_APPROVER');
  if (!eligible(row, decider)) throw forbidden('You are not among the approvers of this case (neither listed nor holding one of its roles)', 'NOT_AN_APPROVER');
  return decider;
}

/** Admins, the requester, the approvers and whoever decided see a case. */
export function maySee(row: ApprovalCase, principal: Principal, tenantId: string): boolean {
  if (isAdmin(principal, tenantId) || row.requested_by === principal.sub) return true;
  const decider = deciderOf(principal, tenantId);
  return !('refused' in decider) && (eligible(row, decider) || row.decisions.some((d) => d.by === decider.sub));
}
