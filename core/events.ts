// The core's event emitter. Plugins emit inside their own transaction, so an
// event exists only if its cause committed; the events plugin provides the
// durable stream behind it. Without that plugin, events are only logged.
import type { Logger } from 'pino';
import type { TenantTransaction } from './db/tenant.ts';

export interface EventInput {
  type: string;
  source: string;
  data?: Record<string, unknown>;
  /** Defaults to a new UUID. */
  id?: string;
  time?: string;
  /**
   * The workflow execution whose run emits this event (emit_event passes it):
   * the events plugin makes the event one link deeper in its chain (the
   * `chaindepth` extension) than the event that started that execution.
   */
  cause?: {
    execution_id: string;
    /**
     * The depth of the event that started that execution, when the caller
     * knows it (the workflows plugin keeps it in the execution's origin): the
     * events plugin then need not look it up.
     */
    chaindepth?: number;
  };
}

export type EventBackend = (trx: TenantTransaction, tenantId: string, event: EventInput) => Promise<unknown>;

export class EventHub {
  private backend: EventBackend | undefined;
  private readonly logger: Logger;

  constructor(logger: Logger) {
    this.logger = logger;
  }

  setBackend(backend: EventBackend): void {
    if (this.backend) throw new Error('an event backend is already installed');
    this.backend = backend;
  }

  async emit(trx: TenantTransaction, tenantId: string, event: EventInput): Promise<unknown> {
    if (this.backend) return this.backend(trx, tenantId, event);
    this.logger.debug({ tenantId, type: event.type }, 'event emitted without an events plugin');
    return undefined;
  }
}
