// kysely types of the webhooks plugin's tables (sql/0001_init.sql,
// sql/0002_replay.sql), added
// to the core's Database interface by module augmentation.
import type { ColumnType } from 'kysely';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface WebhookDefinitionsTable {
  tenant_id: string;
  name: string;
  description: string;
  secret_hash: string;
  created_at: CreatedAt;
  rotated_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface WebhookSigningSecretsTable {
  tenant_id: string;
  sealed_secret: string;
  created_at: CreatedAt;
  rotated_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface WebhookDeliveriesTable {
  tenant_id: string;
  scope: string;
  webhook_id: string;
  received_at: Timestamp;
}

export interface WebhookSignaturesTable {
  tenant_id: string;
  signature_hash: string;
  accepted_at: Timestamp;
  expires_at: Timestamp;
}

export interface WebhookRateTable {
  tenant_id: string;
  window_start: Timestamp;
  count: number;
}

declare module 'agent-platform/sdk' {
  interface Database {
    webhook_definitions: WebhookDefinitionsTable;
    webhook_signing_secrets: WebhookSigningSecretsTable;
    webhook_deliveries: WebhookDeliveriesTable;
    webhook_rate: WebhookRateTable;
    webhook_signatures: WebhookSignaturesTable;
  }
}
