// Response shapes of sessions and messages, one for every caller (users,
// service tokens, API keys and embed tokens alike). Timestamps are UTC written
// without a zone suffix (clients read them as UTC), e.g.
// 2025-01-31T09:15:02.123.

export function utc(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const date = value instanceof Date ? value : new Date(value);
  return date.toISOString().replace(/Z$/, '');
}

export function sessionView(row: {
  id: string; client_id: number; agent_name: string | null; title: string; is_active: boolean; created_at: Date; last_active: Date;
}) {
  return {
    id: row.id,
    title: row.title,
    is_active: row.is_active,
    last_active: utc(row.last_active)!,
    created_at: utc(row.created_at)!,
    client_id: row.client_id,
    agent_name: row.agent_name,
  };
}

export function messageView(
  row: { id: number; role: string; content: string; tool_metadata: Record<string, unknown>; created_at: Date; turn_id: string | null },
  feedback?: { rating: number; comment: string },
) {
  return {
    id: row.id,
    role: row.role,
    content: row.content,
    tool_metadata: row.tool_metadata ?? {},
    turn_id: row.turn_id,
    created_at: utc(row.created_at)!,
    feedback: feedback ? { rating: feedback.rating, comment: feedback.comment } : null,
  };
}
