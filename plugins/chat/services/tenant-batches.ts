// A tenant's requests handled a batch at a time, in this process: requests
// that arrive while the tenant's batch is being handled wait for it and go
// in the next one, in their order (no timer: an idle tenant's request is
// handled at once). Used where every request of a tenant takes the tenant's
// lock: one transaction per batch instead of one per request queued on it.

interface Waiting<Request, Outcome> {
  request: Request;
  resolve(outcome: Outcome): void;
  reject(error: unknown): void;
}

export class TenantBatches<Request, Outcome> {
  private readonly queues = new Map<string, Waiting<Request, Outcome>[]>();
  private readonly handle: (tenantId: string, batch: Request[]) => Promise<Outcome[]>;
  private readonly maxBatch: number;

  /** `handle` answers a batch with one outcome per request, in order; if it throws, every request of the batch fails with its error. */
  constructor(handle: (tenantId: string, batch: Request[]) => Promise<Outcome[]>, maxBatch: number) {
    this.handle = handle;
    this.maxBatch = maxBatch;
  }

  submit(tenantId: string, request: Request): Promise<Outcome> {
    return new Promise((resolve, reject) => {
      const waiting = { request, resolve, reject };
      const queue = this.queues.get(tenantId);
      if (queue) {
        queue.push(waiting);
        return;
      }
      this.queues.set(tenantId, [waiting]);
      void this.drain(tenantId);
    });
  }

  private async drain(tenantId: string): Promise<void> {
    const queue = this.queues.get(tenantId)!;
    while (queue.length > 0) {
      const batch = queue.splice(0, this.maxBatch);
      try {
        const outcomes = await this.handle(tenantId, batch.map((waiting) => waiting.request));
        batch.forEach((waiting, i) => waiting.resolve(outcomes[i]));
      } catch (err) {
        for (const waiting of batch) waiting.reject(err);
      }
    }
    this.queues.delete(tenantId);
  }
}
