// The statements of the one-time sign-in links (console.link_codes) and the
// user lookup their exchange needs (the identity directory, `users`).
import type { CoreServices } from 'agent-platform/sdk';
import './tables.ts';

type Db = CoreServices['db'];

export const linksStore = {
  async insert(db: Db, row: { code_hash: string; sub: string; tenant: string | null; expires_at: Date }): Promise<void> {
    await db.insertInto('console.link_codes').values(row).execute();
  },

  /**
   * Marks the code used and returns its row, in one statement, when it is
   * unused and unexpired: two exchanges of one code cannot both succeed.
   */
  async consume(db: Db, codeHash: string, now: Date): Promise<{ sub: string; tenant: string | null } | undefined> {
    return db.updateTable('console.link_codes').set({ used_at: now })
      .where('code_hash', '=', codeHash).where('used_at', 'is', null).where('expires_at', '>', now)
      .returning(['sub', 'tenant']).executeTakeFirst();
  },

  /** Drops links that expired before `before` (used or not). */
  async prune(db: Db, before: Date): Promise<number> {
    const result = await db.deleteFrom('console.link_codes').where('expires_at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  },

  async user(db: Db, sub: string): Promise<{ sub: string; organizations: Record<string, { roles: string[] }>; service_account: boolean } | undefined> {
    const row = await db.selectFrom('users').select(['sub', 'organizations', 'service_account']).where('sub', '=', sub).executeTakeFirst();
    return row as { sub: string; organizations: Record<string, { roles: string[] }>; service_account: boolean } | undefined;
  },

};
