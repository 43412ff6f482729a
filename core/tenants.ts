// Knows which tenants exist, with a short cache: every tenant-scoped request
// asks, and tenants are rarely created and never renamed.
import type { Kysely } from 'kysely';
import type { Database } from './db/types.ts';

const TTL_MS = 30_000;

export class TenantDirectory {
  private readonly known = new Map<string, number>();
  private readonly db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  async exists(tenantId: string): Promise<boolean> {
    const until = this.known.get(tenantId);
    if (until && until > Date.now()) return true;
    const row = await this.db.selectFrom('tenants').select('id').where('id', '=', tenantId).executeTakeFirst();
    if (row) this.known.set(tenantId, Date.now() + TTL_MS);
    return Boolean(row);
  }

  forget(tenantId: string): void {
    this.known.delete(tenantId);
  }
}
