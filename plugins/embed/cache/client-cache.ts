// The embed configurations of clients, as the public endpoints and the origin
// policy read them: cached in this process per client, so that a manifest
// read or an end-user request does no database round trip in the common case.
// A change (changed()) is seen at once here and, through core.invalidation's
// channel `embed.clients`, in every other process; while that channel is down
// (and for a change no process announced) an entry is reloaded once older than
// EMBED_CONFIG_CACHE_TTL_SECONDS. Unknown keys are cached too (as null), so a
// flood of made-up keys costs one lookup per key and TTL. The map is bounded.
import type { CoreServices } from 'agent-platform/sdk';
import { configsStore, directoryStore, type DirectoryEntry } from '../store/configs.ts';
import type { EmbedFeatures, EmbedTheme } from '../store/tables.ts';

const MAX_ENTRIES = 20_000;
export const CLIENTS_CHANNEL = 'embed.clients';

export interface EmbedClient {
  tenantId: string;
  clientId: number;
  clientKey: string;
  tenantDisplayName: string | null;
  enabled: boolean;
  allowedOrigins: ReadonlySet<string>;
  defaultMode: 'launcher' | 'inline';
  features: EmbedFeatures;
  theme: EmbedTheme;
  /** The linked embed credential (a service account's sub), null when none. */
  serviceAccountSub: string | null;
  version: number;
  /** The manifest, built once per load. */
  manifest: Readonly<Record<string, unknown>>;
}

interface Slot {
  value: Promise<EmbedClient | null>;
  at: number;
  /** The settled value (for peek), once the load has finished. */
  loaded?: { entry: EmbedClient | null };
}

export function manifestOf(entry: Omit<EmbedClient, 'manifest'>): Record<string, unknown> {
  return {
    client_key: entry.clientKey,
    client_id: entry.clientId,
    // The tenant alias: the X-Tenant-ID of the tenant's public routes (the report element in an answer).
    tenant: entry.tenantId,
    tenant_display_name: entry.tenantDisplayName,
    default_mode: entry.defaultMode,
    // A host token always works; embed tokens once an embed credential exists to mint them.
    auth_modes: entry.serviceAccountSub ? ['host-token', 'embed-token'] : ['host-token'],
    features: entry.features,
    theme: entry.theme,
  };
}

export class ClientCache {
  private readonly byKeySlots = new Map<string, Slot>();
  private readonly keyOfId = new Map<number, string>();
  private readonly core: Pick<CoreServices, 'db' | 'withTenant' | 'invalidation'>;
  private readonly ttlMs: number;
  /** Bumped by every forget: a load that began before it does not fill the cache. */
  private generation = 0;

  constructor(core: Pick<CoreServices, 'db' | 'withTenant' | 'invalidation'>, ttlSeconds: number) {
    this.core = core;
    this.ttlMs = ttlSeconds * 1000;
    core.invalidation.subscribe(CLIENTS_CHANNEL, {
      message: (payload) => {
        const at = payload.indexOf(':');
        if (at > 0) this.forget(Number(payload.slice(0, at)), payload.slice(at + 1));
      },
      missed: () => this.clear(),
    });
  }

  /** The client with this public key, null when no embed configuration has it. */
  byKey(clientKey: string): Promise<EmbedClient | null> {
    const slot = this.byKeySlots.get(clientKey);
    if (slot && performance.now() - slot.at < this.ttlMs) return slot.value;
    return this.load(clientKey, { clientKey });
  }

  /**
   * The client with this key when it is loaded and fresh, without waiting:
   * undefined when a read would have to go to the database (or is on its way).
   */
  peek(clientKey: string): EmbedClient | null | undefined {
    const slot = this.byKeySlots.get(clientKey);
    if (!slot?.loaded || performance.now() - slot.at >= this.ttlMs) return undefined;
    return slot.loaded.entry;
  }

  /** The client with this id (any tenant: callers compare tenantId), null when it has no embed configuration. */
  byId(clientId: number): Promise<EmbedClient | null> {
    const key = this.keyOfId.get(clientId);
    if (key !== undefined) return this.byKey(key);
    return this.load(undefined, { clientId });
  }

  /** A client's configuration or credential changed (committed): every process drops what it holds of it. */
  async changed(clientId: number, clientKey: string): Promise<void> {
    this.forget(clientId, clientKey);
    await this.core.invalidation.publish(CLIENTS_CHANNEL, `${clientId}:${clientKey}`);
  }

  /** Drops what this process holds of a client. */
  forget(clientId: number, clientKey: string): void {
    this.generation++;
    this.byKeySlots.delete(clientKey);
    this.keyOfId.delete(clientId);
  }

  /** Drops everything this process holds. */
  clear(): void {
    this.generation++;
    this.byKeySlots.clear();
    this.keyOfId.clear();
  }

  private load(clientKey: string | undefined, by: { clientKey: string } | { clientId: number }): Promise<EmbedClient | null> {
    const slot: Slot = { value: Promise.resolve(null), at: performance.now() };
    const generation = this.generation;
    const value = this.read(by).then((entry) => {
      slot.loaded = { entry };
      if (entry && generation === this.generation) this.remember(entry.clientKey, { value: Promise.resolve(entry), at: performance.now(), loaded: { entry } }, entry.clientId);
      return entry;
    });
    slot.value = value;
    // Concurrent readers of one key share the load; a failed load is not kept.
    if (clientKey !== undefined) this.remember(clientKey, slot);
    value.catch(() => {
      if (clientKey !== undefined && this.byKeySlots.get(clientKey)?.value === value) this.byKeySlots.delete(clientKey);
    });
    return value;
  }

  private remember(clientKey: string, slot: Slot, clientId?: number): void {
    if (this.byKeySlots.size >= MAX_ENTRIES && !this.byKeySlots.has(clientKey)) {
      const oldest = this.byKeySlots.keys().next().value!;
      this.byKeySlots.delete(oldest);
    }
    this.byKeySlots.set(clientKey, slot);
    if (clientId !== undefined) {
      if (this.keyOfId.size >= MAX_ENTRIES) this.keyOfId.clear();
      this.keyOfId.set(clientId, clientKey);
    }
  }

  private async read(by: { clientKey: string } | { clientId: number }): Promise<EmbedClient | null> {
    const found: DirectoryEntry | undefined = await directoryStore.find(this.core.db, by);
    if (!found) return null;
    const config = await this.core.withTenant(found.tenant_id, (trx) => configsStore.get(trx, found.client_id));
    if (!config) return null;
    const entry = {
      tenantId: found.tenant_id,
      clientId: found.client_id,
      clientKey: found.client_key,
      tenantDisplayName: found.tenant_display_name,
      enabled: config.enabled,
      allowedOrigins: new Set(config.allowed_origins),
      defaultMode: config.default_mode,
      features: config.features,
      theme: config.theme,
      serviceAccountSub: config.service_account_sub,
      version: config.version,
    };
    return { ...entry, manifest: Object.freeze(manifestOf(entry)) };
  }
}
