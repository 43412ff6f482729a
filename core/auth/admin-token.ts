// The super-admin bearer token. ADMIN_TOKEN sets it; without one, the first
// start generates a token, stores only its hash and prints it once.
import type { Kysely } from 'kysely';
import type { Database } from '../db/types.ts';
import { hashSecret, randomToken } from '../secrets.ts';

const SETTING = 'admin_token_hash';

export async function resolveAdminTokenHash(
  db: Kysely<Database>,
  configured: string | undefined,
  announce: (token: string) => void,
): Promise<string> {
  if (configured) return hashSecret(configured);
  const existing = await db.selectFrom('platform_settings').select('value').where('key', '=', SETTING).executeTakeFirst();
  if (existing) return existing.value;
  const token = `adm_${randomToken(24)}`;
  const inserted = await db
    .insertInto('platform_settings')
    .values({ key: SETTING, value: hashSecret(token) })
    .onConflict((oc) => oc.column('key').doNothing())
    .returning('value')
    .executeTakeFirst();
  if (inserted) {
    announce(token);
    return inserted.value;
  }
  // Another process generated it first; theirs is the one that was printed.
  const winner = await db.selectFrom('platform_settings').select('value').where('key', '=', SETTING).executeTakeFirstOrThrow();
  return winner.value;
}
