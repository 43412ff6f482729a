// kysely types of the console plugin's tables (sql/0001_link_codes.sql),
// added to the core's Database interface by module augmentation.
import type { ColumnType } from 'kysely';

export interface ConsoleLinkCodesTable {
  code_hash: string;
  sub: string;
  tenant: string | null;
  created_at: ColumnType<Date, Date | string | undefined, never>;
  expires_at: ColumnType<Date, Date | string, never>;
  used_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

declare module 'agent-platform/sdk' {
  interface Database {
    'console.link_codes': ConsoleLinkCodesTable;
  }
}
