// kysely types of the tenancy plugin's tables, added to the platform's
// Database interface by declaration merging. The tables themselves are
// created by core's migration sql/0002_tenancy.sql (they predate migrations
// per plugin and every plugin's rows reference a tenant); `tenants` is core's
// own (core/db/types.ts): this plugin gives it its API.
import type { ColumnType, Generated } from 'agent-platform/sdk';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

/** A tenant's chat surface or integration; tenant-owned (forced RLS). */
export interface ClientsTable {
  id: Generated<number>;
  tenant_id: string;
  client_key: string;
  name: string;
  created_at: CreatedAt;
}

/** A client's API keys: only a hash and a display prefix; tenant-owned (forced RLS). */
export interface ApiKeysTable {
  id: Generated<number>;
  tenant_id: string;
  client_id: number;
  name: string;
  key_prefix: string;
  key_hash: string;
  created_at: CreatedAt;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

/** The identity directory (global): memberships keyed by tenant alias, with roles. */
export interface UsersTable {
  sub: string;
  display_name: string;
  organizations: ColumnType<Record<string, { roles: string[] }>, string, string>;
  service_account: boolean;
  secret_hash: string | null;
  created_at: CreatedAt;
}

/** A tenant's public origins (sql/0002_public_origins.sql); tenant-owned (forced RLS). */
export interface TenantPublicOriginsTable {
  tenant_id: string;
  origin: string;
  created_at: CreatedAt;
}

declare module 'agent-platform/sdk' {
  interface Database {
    tenant_public_origins: TenantPublicOriginsTable;
    clients: ClientsTable;
    api_keys: ApiKeysTable;
    users: UsersTable;
  }
}
