// Knows which tenants exist, with a short cache: every tenant-scoped request
// asks, and tenants are rarely created and never renamed. Also the one way
// maintenance work visits every tenant (`each`): tenants are a global table,
// while each tenant's own rows are reachable only in its own context.
import type { Kysely } from 'kysely';
import type { Database } from './db/types.ts';

const TTL_MS = 30_000;
const PAGE_SIZE = 500;

export class TenantDirectory {
  private readonly known = new Map<string, number>();
  /** Queries under way, by tenant. */
  private readonly asking = new Map<string, Promise<boolean>>();
  private readonly db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  /**
   * Whether the tenant exists. Concurrent calls for a tenant not known (or
   * whose entry expired) share one query: a burst of requests after the
   * entry expired would otherwise each take a pooled connection to ask.
   */
  exists(tenantId: string): Promise<boolean> {
    const until = this.known.get(tenantId);
    if (until && until > Date.now()) return Promise.resolve(true);
    let asked = this.asking.get(tenantId);
    if (!asked) {
      asked = this.db.selectFrom('tenants').select('id').where('id', '=', tenantId).executeTakeFirst()
        .then((row) => {
          if (row && this.asking.get(tenantId) === asked) this.known.set(tenantId, Date.now() + TTL_MS);
          return Boolean(row);
        })
        .finally(() => {
          if (this.asking.get(tenantId) === asked) this.asking.delete(tenantId);
        });
      this.asking.set(tenantId, asked);
    }
    return asked;
  }

  forget(tenantId: string): void {
    this.known.delete(tenantId);
    // A query already under way may predate the change: the next call asks again.
    this.asking.delete(tenantId);
  }

  /**
   * Calls `visit` with every tenant's alias, in alias order, one at a time,
   * reading the tenants a page at a time (keyset on the alias), so that it
   * holds at most one page however many tenants there are. A tenant created
   * meanwhile is visited when its alias sorts after the current page. An
   * error of `visit` stops the walk (catch inside `visit` to go on with the
   * next tenant). Returns how many tenants it visited.
   */
  async each(visit: (tenantId: string) => unknown, options: { pageSize?: number } = {}): Promise<number> {
    const pageSize = options.pageSize ?? PAGE_SIZE;
    let after: string | undefined;
    let visited = 0;
    for (;;) {
      let query = this.db.selectFrom('tenants').select('id').orderBy('id').limit(pageSize);
      if (after !== undefined) query = query.where('id', '>', after);
      const page = await query.execute();
      for (const { id } of page) {
        await visit(id);
        visited++;
      }
      if (page.length < pageSize) return visited;
      after = page.at(-1)!.id;
    }
  }
}
