// What the approvals plugin exposes to other plugins (register's `approvals` dependency)
// and the shapes of its cases. Others import only these types.
import type { TenantTransaction } from 'agent-platform/sdk';

export type CaseStatus = 'pending' | 'approved' | 'rejected' | 'expired' | 'cancelled';

/** Who may decide: holders of one of the roles in the tenant, or users listed by subject. */
export interface Approvers {
  roles?: string[];
  users?: string[];
}

export type ApprovalSource =
  | { type: 'workflow'; execution_id: string; step_id: string; seq?: number }
  | { type: 'agent'; session_id: string; turn_id?: string; tool_call_id?: string }
  | { type: 'api' };

export interface Decision {
  by: string;
  decision: 'approve' | 'reject';
  comment: string | null;
  decided_at: string;
  /** How it was given: the REST/GraphQL api, a decision link, the CLI. */
  via: 'api' | 'link' | 'cli';
}

export interface ApprovalCase {
  id: string;
  title: string;
  description: string;
  payload: unknown;
  source: ApprovalSource;
  approvers: Approvers;
  quorum: number;
  status: CaseStatus;
  decisions: Decision[];
  requested_by: string;
  expires_at: Date;
  created_at: Date;
  resolved_at: Date | null;
}

/** What a waiting workflow or agent gets when its case resolves. */
export interface CaseOutcome {
  case_id: string;
  status: CaseStatus;
  decisions: Decision[];
  timed_out: boolean;
}

export interface NewCase {
  title: string;
  description?: string;
  payload?: unknown;
  approvers: Approvers;
  quorum?: number;
  timeout_seconds?: number;
}

export interface ApprovalsApi {
  /** Opens a case in the caller's transaction (emits approval.created, arms its expiry). */
  create(trx: TenantTransaction, tenantId: string, input: NewCase, source: ApprovalSource, requestedBy: string): Promise<ApprovalCase>;
}

declare module '@hapi/hapi' {
  interface PluginProperties {
    approvals: { api: ApprovalsApi };
  }
}
