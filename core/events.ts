// The core's event emitter and the catalogue of the platform's event types.
// Plugins emit inside their own transaction, so an event exists only if its
// cause committed; the events plugin provides the durable stream behind it.
// Without that plugin, events are only logged. Each plugin registers the
// types it emits at register time (core.events.registerTypes); the events
// plugin lists them, keeps tenants' custom types off their names, and warns
// about emitted types that are neither registered nor custom.
import type { OperationNodeSource } from 'kysely';
import type { Logger } from 'pino';
import type { TenantTransaction } from './db/tenant.ts';
import { isValidEventType } from './event-matching.ts';
import { PluginContractError } from './contract-error.ts';

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

/** How an event is emitted. */
export interface EmitOptions {
  /**
   * A data-modifying query of the caller's (a kysely update, insert or delete
   * builder on `trx`) sent with the append as one statement: a round trip
   * less where a change and the event announcing it are written together. It
   * runs whether or not an events backend is installed.
   */
  alongside?: OperationNodeSource & { execute(): Promise<unknown> };
}

/**
 * The durable stream behind emit. `options` reaches it only when it was
 * installed with `{ alongside: true }` (it then sends options.alongside with
 * its append); otherwise the hub runs the caller's query first.
 */
export type EventBackend = (trx: TenantTransaction, tenantId: string, event: EventInput, options?: EmitOptions) => Promise<unknown>;

/** A type a plugin emits: its name, what it means, and optionally the JSON Schema of its data (checked with a warning). */
export interface EventTypeDefinition {
  type: string;
  description: string;
  schema?: Record<string, unknown>;
}

export interface RegisteredEventType extends EventTypeDefinition {
  /** The plugin that registered it. */
  plugin: string;
  /** Registered by the core or by one of this repository's own plugins (not a partner's). */
  builtin: boolean;
}

/** Reading the registered types (the events plugin's catalogue). */
export interface EventTypeCatalog {
  registeredTypes(): readonly RegisteredEventType[];
  registeredType(type: string): RegisteredEventType | undefined;
}

/** What a plugin sees as core.events. */
export interface EventsApi extends EventTypeCatalog {
  emit(trx: TenantTransaction, tenantId: string, event: EventInput, options?: EmitOptions): Promise<unknown>;
  /** Declares the types this plugin emits; a name another plugin registered fails the boot. */
  registerTypes(types: EventTypeDefinition[]): void;
  /** The durable stream (the events plugin); only one may be installed. */
  setBackend(backend: EventBackend, capabilities?: { alongside?: boolean }): void;
}

export class EventHub implements EventsApi {
  private backend: EventBackend | undefined;
  private backendSendsAlongside = false;
  private readonly types = new Map<string, RegisteredEventType>();
  private readonly logger: Logger;
  private readonly builtinPlugins: ReadonlySet<string>;

  /** `builtinPlugins`: the names of the loaded plugins that are this repository's own (the core is built in too). */
  constructor(logger: Logger, builtinPlugins: Iterable<string> = []) {
    this.logger = logger;
    this.builtinPlugins = new Set(['core', ...builtinPlugins]);
  }

  setBackend(backend: EventBackend, capabilities: { alongside?: boolean } = {}): void {
    if (this.backend) throw new Error('an event backend is already installed');
    this.backend = backend;
    this.backendSendsAlongside = capabilities.alongside === true;
  }

  async emit(trx: TenantTransaction, tenantId: string, event: EventInput, options?: EmitOptions): Promise<unknown> {
    if (this.backend && this.backendSendsAlongside) return this.backend(trx, tenantId, event, options);
    await options?.alongside?.execute();
    if (this.backend) return this.backend(trx, tenantId, event);
    this.logger.debug({ tenantId, type: event.type }, 'event emitted without an events plugin');
    return undefined;
  }

  registerTypes(types: EventTypeDefinition[], plugin = 'core'): void {
    for (const { type, description, schema } of types) {
      if (typeof type !== 'string' || !isValidEventType(type)) {
        throw new PluginContractError(`plugin "${plugin}" registers an invalid event type ${JSON.stringify(type)} (letters, digits, _ and - separated by dots)`);
      }
      const taken = this.types.get(type);
      if (taken) throw new PluginContractError(`event type "${type}" is registered twice: by plugin "${taken.plugin}" and by plugin "${plugin}"`);
      this.types.set(type, { type, description, ...(schema ? { schema } : {}), plugin, builtin: this.builtinPlugins.has(plugin) });
    }
  }

  registeredTypes(): readonly RegisteredEventType[] {
    return [...this.types.values()];
  }

  registeredType(type: string): RegisteredEventType | undefined {
    return this.types.get(type);
  }

  /** core.events as one plugin sees it: what it registers is recorded under its name. */
  forPlugin(plugin: string): EventsApi {
    return {
      emit: (trx, tenantId, event, options) => this.emit(trx, tenantId, event, options),
      registerTypes: (types) => this.registerTypes(types, plugin),
      setBackend: (backend, capabilities) => this.setBackend(backend, capabilities),
      registeredTypes: () => this.registeredTypes(),
      registeredType: (type) => this.registeredType(type),
    };
  }
}
