// The AI plugin's table (kysely types, merged into the SDK's Database).
import type { ColumnType, Generated } from 'agent-platform/sdk';

export type CompositionStatus = 'queued' | 'running' | 'succeeded' | 'failed';

export interface PipelinesAiCompositionsTable {
  id: Generated<string>;
  tenant_id: string;
  status: ColumnType<CompositionStatus, CompositionStatus | undefined, CompositionStatus>;
  request: ColumnType<Record<string, unknown>, string, string>;
  result: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  error: ColumnType<{ code: string; message: string } | null, string | null | undefined, string | null>;
  attempts: ColumnType<number, number | undefined, number>;
  created_by: string | null;
  created_at: ColumnType<Date, never, never>;
  finished_at: ColumnType<Date | null, never, Date | string | null>;
}

declare module 'agent-platform/sdk' {
  interface Database {
    pipelines_ai_compositions: PipelinesAiCompositionsTable;
  }
}
