// Which tenants allow which public origins, as the CORS policy of the public
// routes reads it: the whole (origin, tenant) directory, kept in this process
// and read again when older than PUBLIC_ORIGINS_CACHE_MS (one query, made by
// the first request that needs it while others wait for the same read). A
// change is seen at once in every process: the service that makes it publishes
// on core.invalidation's channel `tenancy.public-origins`, which makes each
// process forget the directory; while that channel is down, within
// PUBLIC_ORIGINS_CACHE_MS. Its size is bounded by the table's (at most
// MAX_ORIGINS per tenant).
export const PUBLIC_ORIGINS_CACHE_MS = 5_000;
export const PUBLIC_ORIGINS_CHANNEL = 'tenancy.public-origins';

type Pairs = ReadonlyMap<string, ReadonlySet<string>>;

export class OriginDirectory {
  private pairs: Pairs | undefined;
  private loadedAt = 0;
  private loading: Promise<Pairs> | undefined;
  /** Bumped by forget(): a read that began before a change does not count as fresh. */
  private generation = 0;
  private readonly read: () => Promise<{ origin: string; tenant_id: string }[]>;
  private readonly now: () => number;

  constructor(read: () => Promise<{ origin: string; tenant_id: string }[]>, now: () => number = () => performance.now()) {
    this.read = read;
    this.now = now;
  }

  /** Whether the tenant allows the origin (a normalized origin). */
  async allows(tenantId: string, origin: string): Promise<boolean> {
    return (await this.current()).get(origin)?.has(tenantId) ?? false;
  }

  /** Whether some tenant allows the origin (names none). */
  async anyAllows(origin: string): Promise<boolean> {
    return (await this.current()).has(origin);
  }

  /** A tenant's list changed (here, or another process said so): the next question reads the directory again. */
  forget(): void {
    this.generation++;
    this.pairs = undefined;
  }

  private current(): Promise<Pairs> {
    if (this.pairs && this.now() - this.loadedAt < PUBLIC_ORIGINS_CACHE_MS) return Promise.resolve(this.pairs);
    this.loading ??= this.load().finally(() => { this.loading = undefined; });
    return this.loading;
  }

  private async load(): Promise<Pairs> {
    const generation = this.generation;
    const startedAt = this.now();
    const pairs = new Map<string, Set<string>>();
    for (const row of await this.read()) {
      let tenants = pairs.get(row.origin);
      if (!tenants) pairs.set(row.origin, tenants = new Set());
      tenants.add(row.tenant_id);
    }
    if (generation === this.generation) {
      this.pairs = pairs;
      this.loadedAt = startedAt;
    }
    return pairs;
  }
}
