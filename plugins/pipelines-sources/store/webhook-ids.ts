// SQL of the reconcile webhook's replay store (a global table), on the system
// handle or a transaction of it.
import type { CoreServices } from 'agent-platform/sdk';
import './tables.ts';

type Db = CoreServices['db'];

export const webhookIdsStore = {
  /** Deletes the expired ids, then records `id` until `expiresAt`: false when it is recorded already (a replay). */
  async claim(db: Db, id: string, now: Date, expiresAt: Date): Promise<boolean> {
    await db.deleteFrom('pipeline_pattern_webhook_ids').where('expires_at', '<', now).execute();
    const claimed = await db.insertInto('pipeline_pattern_webhook_ids').values({ id, expires_at: expiresAt })
      .onConflict((c) => c.column('id').doNothing()).returning('id').executeTakeFirst();
    return claimed !== undefined;
  },
};
