// One-time sign-in links: `platform console link` stores a random code's hash
// for a user (and optionally one tenant); the console exchanges the code once
// for an access token issued as POST /api/admin/users/{sub}/tokens issues it.
// An unknown, used or expired code, or a user who no longer exists or left
// the tenant: the same 401, so a caller learns nothing of which it was.
import { createHash, randomBytes } from 'node:crypto';
import { notFound, unauthorized, type CoreServices } from 'agent-platform/sdk';
import { linksStore } from '../store/links.ts';

const hashOf = (code: string) => createHash('sha256').update(code).digest('hex');
const refused = () => unauthorized('This sign-in link is unknown, used or expired: ask for a new one', 'LINK_INVALID');

export interface LinkSettings { ttlSeconds: number; publicBaseUrl: string }

export function createLinksService(core: CoreServices, settings: LinkSettings) {
  return {
    /** A new link for `sub` (limited to `tenant` when given): its URL (the code in the fragment) and expiry. */
    async create(sub: string, tenant?: string): Promise<{ url: string; expires_at: Date }> {
      const user = await linksStore.user(core.db, sub);
      if (!user) throw notFound(`User not found: ${sub}`, 'USER_NOT_FOUND');
      if (tenant !== undefined) {
        if (!(await core.tenants.exists(tenant))) throw notFound(`Tenant not found: ${tenant}`, 'TENANT_NOT_FOUND');
        if (!user.organizations[tenant]) throw notFound(`User ${sub} is no member of tenant ${tenant}`, 'USER_NOT_FOUND');
      }
      const code = randomBytes(32).toString('base64url');
      const expires_at = new Date(core.clock.now().getTime() + settings.ttlSeconds * 1000);
      await linksStore.insert(core.db, { code_hash: hashOf(code), sub, tenant: tenant ?? null, expires_at });
      // In the fragment: never sent to a server, never in a Referer; the console strips it at once.
      return { url: `${settings.publicBaseUrl.replace(/\/$/, '')}/console/#link=${code}`, expires_at };
    },

    /** The access token of a link's code; 401 LINK_INVALID for any code that is not a live, unused link. */
    async exchange(code: string) {
      const now = core.clock.now();
      const link = await linksStore.consume(core.db, hashOf(code), now);
      if (!link) throw refused();
      const user = await linksStore.user(core.db, link.sub);
      if (!user || (link.tenant !== null && !user.organizations[link.tenant])) throw refused();
      const organizations = link.tenant !== null ? { [link.tenant]: user.organizations[link.tenant]! } : user.organizations;
      return core.auth.tokens.issueUserToken({ sub: user.sub, organizations, serviceAccount: user.service_account });
    },

    /** Forgets links expired for a day. */
    prune: () => linksStore.prune(core.db, new Date(core.clock.now().getTime() - 86_400_000)),
  };
}

export type LinksService = ReturnType<typeof createLinksService>;
