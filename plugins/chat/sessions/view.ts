// Response shapes of sessions and messages. Timestamps are UTC written
// without a zone suffix (clients read them as UTC), e.g.
// 2025-01-31T09:15:02.123; to an embed token (the widget, which reads both
// forms) with the `Z`, so that no reader can take them for local time.
import type { Principal } from 'agent-platform/sdk';

/** How a caller gets its timestamps: `Z` for embed tokens, no suffix otherwise. */
export type Zone = '' | 'Z';

export const zoneFor = (principal: Principal): Zone => (principal.kind === 'embed' ? 'Z' : '');

export function utc(value: Date | string | null | undefined, zone: Zone = ''): string | null {
  if (value === null || value === undefined) return null;
  const date = value instanceof Date ? value : new Date(value);
  const iso = date.toISOString();
  return zone === 'Z' ? iso : iso.replace(/Z$/, '');
}

export function sessionView(row: {
  id: string; client_id: number; agent_name: string | null; title: string; is_active: boolean; created_at: Date; last_active: Date;
}, zone: Zone = '') {
  return {
    id: row.id,
    title: row.title,
    is_active: row.is_active,
    last_active: utc(row.last_active, zone)!,
    created_at: utc(row.created_at, zone)!,
    client_id: row.client_id,
    agent_name: row.agent_name,
  };
}

export function messageView(
  row: { id: number; role: string; content: string; tool_metadata: Record<string, unknown>; created_at: Date; turn_id: string | null },
  feedback?: { rating: number; comment: string },
  zone: Zone = '',
) {
  return {
    id: row.id,
    role: row.role,
    content: row.content,
    tool_metadata: row.tool_metadata ?? {},
    turn_id: row.turn_id,
    created_at: utc(row.created_at, zone)!,
    feedback: feedback ? { rating: feedback.rating, comment: feedback.comment } : null,
  };
}
