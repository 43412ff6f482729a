// kysely types of the mail plugin's table (sql/0001_init.sql), added to the
// platform's Database interface by declaration merging.
import type { ColumnType, Generated } from 'agent-platform/sdk';
import type { OutboxState } from '../api.ts';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface MailOutboxTable {
  id: Generated<number>;
  tenant_id: string;
  recipient: string;
  subject: string;
  body_text: string;
  body_html: ColumnType<string | null, string | null | undefined, string | null>;
  state: OutboxState;
  attempts: ColumnType<number, number | undefined, number>;
  last_error: ColumnType<string | null, string | null | undefined, string | null>;
  next_attempt_at: NullableTimestamp;
  sent_at: NullableTimestamp;
  origin: string;
  origin_id: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

declare module 'agent-platform/sdk' {
  interface Database {
    mail_outbox: MailOutboxTable;
  }
}
