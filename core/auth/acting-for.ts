// Who a call made later, for a person, acts for. Work that outlives the
// request that set it up (a source's syncs, a trigger's workflows) stores the
// person as an `Actor` and, at each call, takes that person's CURRENT roles in
// the tenant from the user directory (`users.organizations`): a person who
// lost a role, or left the tenant, loses what the stored work could do with it.
// The super-admin and service tokens hold every role and are no directory
// entries: they stay what they are. A call that acts for no person (genuinely
// system-level work) names itself with `systemPrincipal`.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/types.ts';
import type { Memberships, Principal } from './principal.ts';

export type Actor =
  | { kind: 'user'; sub: string }
  | { kind: 'super_admin' }
  | { kind: 'service'; sub: string };

/** The person a request's principal is, as stored with work done for them later; undefined for API keys and embed tokens (no person). */
export function actorOf(principal: Principal): Actor | undefined {
  switch (principal.kind) {
    case 'user':
      return { kind: 'user', sub: principal.sub };
    case 'super_admin':
      return { kind: 'super_admin' };
    case 'service':
      // A delegation token acts for its user: the user's own rights, not the service's.
      return principal.actor ? { kind: 'user', sub: principal.actor.sub } : { kind: 'service', sub: principal.sub };
    default:
      return undefined;
  }
}

/** A stored actor read back (a jsonb column): undefined when it is not one. */
export function parseActor(value: unknown): Actor | undefined {
  const v = value as { kind?: unknown; sub?: unknown } | null | undefined;
  if (!v || typeof v !== 'object') return undefined;
  if (v.kind === 'super_admin') return { kind: 'super_admin' };
  if ((v.kind === 'user' || v.kind === 'service') && typeof v.sub === 'string' && v.sub.length > 0) return { kind: v.kind, sub: v.sub };
  return undefined;
}

/** Who a stored actor is, for messages: `user alice`, `the super-admin`, `service etl`. */
export function describeActor(actor: Actor): string {
  return actor.kind === 'super_admin' ? 'the super-admin' : `${actor.kind} ${actor.sub}`;
}

/**
 * The principal of platform work that acts for no person (a maintenance job,
 * an execution started before its starter was recorded): every role, named so
 * that logs and functions see which part of the platform called.
 */
export function systemPrincipal(name: string): Principal {
  return { kind: 'service', sub: `system:${name}` };
}

/**
 * The actor's principal in `tenantId` now: a user with the membership the
 * directory holds for that tenant (that one only), or undefined when the user
 * is no member of it (removed, never was, or not in the directory).
 */
export async function currentPrincipal(db: Kysely<Database>, tenantId: string, actor: Actor): Promise<Principal | undefined> {
  if (actor.kind === 'super_admin') return { kind: 'super_admin', sub: 'super-admin' };
  if (actor.kind === 'service') return { kind: 'service', sub: actor.sub };
  const { rows } = await sql<{ membership: { roles?: unknown } | null; service_account: boolean }>`
    SELECT organizations -> ${tenantId}::text AS membership, service_account FROM users WHERE sub = ${actor.sub}`.execute(db);
  const row = rows[0];
  if (!row?.membership) return undefined;
  const roles = Array.isArray(row.membership.roles) ? row.membership.roles.filter((r): r is string => typeof r === 'string') : [];
  const memberships: Memberships = { [tenantId]: { roles } };
  return { kind: 'user', sub: actor.sub, issuer: 'platform', serviceAccount: row.service_account, memberships };
}
