// What the Sources section reads from the pipelines-sources API, and the
// small rules it shares: run tones, when a run is live, a record schema's
// columns, and dates in the person's language.
import type { JsonSchema } from '../../ui/json-schema-form.ts';
import type { Tone } from '../../ui/status-badge.ts';
import type { Locale } from '../../i18n.ts';
import type { SourcesStrings } from './strings.ts';

export interface Pattern {
  id: string; name: string; description: string;
  config_schema: JsonSchema & { properties?: Record<string, JsonSchema & { default?: unknown }> };
  credential_fields: string[];
}

export interface Source {
  id: string; name: string; pattern_id: string; source_config: Record<string, unknown>;
  credential_mode: 'vault' | 'legacy_inline'; credential_ref: string | null;
  credential_fields: string[]; credential_fields_set: string[]; state: 'ready' | 'active'; created_at: string;
}

export type RunStatus = 'queued' | 'running' | 'succeeded' | 'partial' | 'failed';

export interface RunStream {
  stream_name: string; namespace: string | null; destination: string; status: 'pending' | 'succeeded' | 'failed';
  rows_read: number; rows_added: number; rows_removed: number; error: string | null;
}

export interface Run {
  id: string; status: RunStatus; trigger: 'manual' | 'schedule'; is_terminal: boolean;
  rows_read: number; rows_added: number; rows_removed: number; error: string | null;
  created_at: string; started_at: string | null; finished_at: string | null; streams?: RunStream[];
}

export interface SyncStatus { source_id: string; source_state: 'ready' | 'active'; running: boolean; run: Run | null }

export interface Stream {
  id: string; name: string; namespace: string | null; schema: JsonSchema; supported_sync_modes: string[];
  sync_mode: string; write_mode: string; cursor_field: string | null; primary_key: string[]; enabled: boolean; destination: string;
}

export interface DiscoveredStream {
  name: string; namespace: string | null; schema: JsonSchema; supported_sync_modes?: string[]; source_defined_primary_key?: string[];
}

export interface Discovery {
  workflow_id: string; status: 'queued' | 'running' | 'succeeded' | 'failed'; streams: DiscoveredStream[] | null; error: string | null;
}

export interface Schedule {
  source_id: string; cron: string; timezone: string; missed_run_policy: 'skip' | 'catch_up_once'; paused: boolean;
  next_run_at: string | null; last_run_at: string | null; last_outcome: string | null;
}

export const POLL_MS = 2000;

export const RUN_TONES: Record<RunStatus | RunStream['status'], Tone> = {
  queued: 'neutral', running: 'warn', pending: 'neutral', succeeded: 'ok', partial: 'warn', failed: 'error',
};

export const isLive = (status: RunStatus) => status === 'queued' || status === 'running';

/** A stream's columns and their types, from its record schema. */
export function columnsOf(schema: JsonSchema): { name: string; type: string }[] {
  return Object.entries(schema.properties ?? {}).map(([name, column]) => {
    const types = (Array.isArray(column.type) ? column.type : [column.type]).filter((type) => type && type !== 'null');
    return { name, type: [types.join('|') || 'any', column.format].filter(Boolean).join(', ') };
  });
}

export function when(value: string | null, locale: Locale): string {
  return value ? new Date(value).toLocaleString(locale === 'pt' ? 'pt-PT' : 'en-GB', { dateStyle: 'short', timeStyle: 'medium' }) : '—';
}

export const streamLabel = (stream: { name: string; namespace: string | null }) => (stream.namespace ? `${stream.namespace}.${stream.name}` : stream.name);

/** A status, trigger or mode in words (the strings carry one per value). */
export const statusLabel = (t: SourcesStrings, value: string) => (t as unknown as Record<string, string>)[value] ?? value;
