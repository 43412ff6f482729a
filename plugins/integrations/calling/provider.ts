// Imported functions reach agents and workflows through the core registry as
// a FunctionProvider. The registry asks `get` on every call, so definitions
// are cached in this process (bounded, least recently used first); the call
// itself re-reads the function in its one query and corrects a stale entry
// (another process may have re-synced), so the cache only saves a round trip.
// This process's own changes clear the tenant's entries at once.
import type { FunctionDefinition, FunctionDescriptor, FunctionProvider, FunctionStatus, WithTenant } from 'agent-platform/sdk';
import { scopeOf, type Caller, type FreshDefinition } from './caller.ts';
import { functionsStore } from '../store/functions.ts';

const MAX_CACHED = 10_000;
/** What a removed function accepts: anything, so that the call reaches the handler and fails with 410. */
const PERMISSIVE = { type: 'object', additionalProperties: true };

interface Entry {
  id: number;
  version: number;
  status: 'active' | 'removed';
  description: string;
  json_schema: Record<string, unknown>;
  source: string;
}

export interface IntegrationsProvider {
  provider: FunctionProvider;
  /** Forget a tenant's cached definitions (after this process changed them). */
  invalidate(tenantId: string): void;
}

export function createProvider(withTenant: WithTenant, caller: Caller): IntegrationsProvider {
  const cache = new Map<string, Entry>();
  const keyOf = (tenantId: string, name: string) => `${tenantId}\u0000${name}`;

  const remember = (key: string, entry: Entry) => {
    cache.delete(key);
    cache.set(key, entry);
    if (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value!);
  };

  const definitionOf = (tenantId: string, name: string, entry: Entry): FunctionDefinition & { source: string; status: FunctionStatus } => ({
    description: entry.description,
    status: entry.status,
    parameters: entry.status === 'active' ? entry.json_schema : PERMISSIVE,
    source: entry.source,
    schemaKey: `${entry.id}:${entry.version}:${entry.status}`,
    handler: (args, context) =>
      caller(name, { id: entry.id, version: entry.version }, args, scopeOf(context), (fresh: FreshDefinition) => {
        remember(keyOf(tenantId, name), {
          id: fresh.id, version: fresh.version, status: fresh.status, description: fresh.description, json_schema: fresh.json_schema, source: fresh.spec_name,
        });
      }),
  });

  const provider: FunctionProvider = {
    name: 'integrations',
    async list(tenantId, filter): Promise<FunctionDescriptor[]> {
      const rows = await withTenant(tenantId, (trx) => functionsStore.described(trx, filter));
      return rows.map((row) => ({ name: row.name, description: row.description, parameters: row.json_schema, source: row.source, status: row.status }));
    },
    async get(tenantId, name) {
      const key = keyOf(tenantId, name);
      const cached = cache.get(key);
      if (cached) {
        remember(key, cached);
        return definitionOf(tenantId, name, cached);
      }
      const row = await withTenant(tenantId, (trx) => functionsStore.get(trx, name));
      if (!row) return undefined;
      const entry: Entry = {
        id: row.id, version: row.version, status: row.status, description: row.description, json_schema: row.json_schema, source: row.source,
      };
      remember(key, entry);
      return definitionOf(tenantId, name, entry);
    },
  };

  return {
    provider,
    invalidate(tenantId) {
      const prefix = `${tenantId}\u0000`;
      for (const key of [...cache.keys()]) if (key.startsWith(prefix)) cache.delete(key);
    },
  };
}
