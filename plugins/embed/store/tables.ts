// kysely types of the embed plugin's tables (sql/0001_init.sql), added to the
// platform's Database by declaration merging.
import type { ColumnType, Generated } from 'agent-platform/sdk';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface EmbedFeatures {
  uploads: boolean;
  history: boolean;
  feedback: boolean;
  voice: boolean;
}

export type EmbedTheme = Record<string, string>;

/** A client's embed configuration; tenant-owned (forced RLS). */
export interface EmbedConfigsTable {
  tenant_id: string;
  client_id: number;
  enabled: ColumnType<boolean, boolean | undefined, boolean>;
  allowed_origins: ColumnType<string[], string[] | undefined, string[]>;
  default_mode: ColumnType<'launcher' | 'inline', 'launcher' | 'inline' | undefined, 'launcher' | 'inline'>;
  features: ColumnType<EmbedFeatures, string | undefined, string>;
  theme: ColumnType<EmbedTheme, string | undefined, string>;
  service_account_sub: ColumnType<string | null, string | null | undefined, string | null>;
  credentials_updated_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  version: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Which tenant and client a configured client key belongs to (global; the tenant role sees none of it). */
export interface EmbedClientKeysTable {
  client_key: string;
  tenant_alias: string;
  client_id: number;
}

declare module 'agent-platform/sdk' {
  interface Database {
    embed_configs: EmbedConfigsTable;
    embed_client_keys: EmbedClientKeysTable;
  }
}
