// kysely types of the approvals tables (sql/0001_init.sql), added to the
// platform's Database interface by declaration merging.
import type { ColumnType } from 'agent-platform/sdk';
import type { ApprovalSource, Approvers, CaseStatus, Decision } from '../api.ts';

/** jsonb: read as the value, written as its JSON text. */
type Json<T> = ColumnType<T, string, string>;
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface ApprovalCasesTable {
  id: string;
  tenant_id: string;
  title: string;
  description: ColumnType<string, string | undefined, string>;
  payload: Json<unknown>;
  source: Json<ApprovalSource>;
  source_type: ApprovalSource['type'];
  approvers: Json<Approvers>;
  approver_roles: ColumnType<string[], string[], string[]>;
  approver_users: ColumnType<string[], string[], string[]>;
  quorum: number;
  status: ColumnType<CaseStatus, CaseStatus | undefined, CaseStatus>;
  decisions: ColumnType<Decision[], string | undefined, string>;
  requested_by: string;
  expires_at: Timestamp;
  created_at: ColumnType<Date, never, never>;
  resolved_at: ColumnType<Date | null, never, Date | string | null>;
}

export interface ApprovalLinkUsesTable {
  tenant_id: string;
  case_id: string;
  approver: string;
  used_at: ColumnType<Date, never, never>;
}

declare module 'agent-platform/sdk' {
  interface Database {
    approval_cases: ApprovalCasesTable;
    approval_link_uses: ApprovalLinkUsesTable;
  }
}
