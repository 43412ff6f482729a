// The frame vocabulary of the chat stream (POST /api/chat/{session_id}, the
// human-input continuation and GET /api/chat/{session_id}/stream). Each frame
// is one SSE event: `id: <seq>` and `data: <json>` with the frame's `type` and
// `seq` (1, 2, … per turn, continuing across an ask_user suspension), so a
// client that lost its connection asks for the frames after the last seq it saw.

export type Activity = 'thinking' | 'looking_up' | 'writing';
export type ToolState = 'running' | 'completed' | 'failed' | 'awaiting_input' | 'awaiting_approval' | 'answered' | 'timed_out' | 'unavailable';
/** `awaiting_input` / `awaiting_approval`: the turn is suspended on ask_user / request_approval. */
export type DoneStatus = 'completed' | 'stopped' | 'cancelled' | 'failed' | 'awaiting_input' | 'awaiting_approval';

export type Frame =
  /** First frame of a turn (and of its continuation after an answer). */
  | { type: 'turn'; turn_id: string; session_id: string; user_message_id: number; resumed?: boolean }
  /** What the agent is doing: waiting for the model, running tools, writing the answer. */
  | { type: 'activity'; activity: Activity }
  /** A piece of the answer's text. */
  | { type: 'text'; delta: string }
  /**
   * A tool call's progress; `awaiting_input` carries the question of ask_user,
   * `awaiting_approval` (and the `completed` that resumes it) request_approval's case_id.
   */
  | { type: 'tool_status'; status: ToolState; tool_call_id: string; name: string; question?: string; options?: string[]; case_id?: string; decision?: string; error?: string }
  /** A complete widget lifted out of the text (capability `widget_stream`). */
  | { type: 'widget'; widget_type: string; data: Record<string, unknown> }
  /** The reply's citations, each resolved and verified (match_type filled in). */
  | { type: 'citations'; citations: Record<string, unknown>[] }
  /** The stored assistant message (for feedback); interrupted when stopped or cancelled. */
  | { type: 'message'; message_id: number; interrupted: boolean }
  /** Something went wrong; the turn ends with done {status: 'failed'}. */
  | { type: 'error'; code: string; message: string }
  /** Last frame of the stream. */
  | { type: 'done'; status: DoneStatus };

/** A text delta's JSON: nearly every frame is one, written without building an object. */
export function textFrameJson(seq: number, delta: string): string {
  return `{"seq":${seq},"type":"text","delta":${JSON.stringify(delta)}}`;
}

export function frameJson(seq: number, frame: Frame): string {
  return frame.type === 'text' ? textFrameJson(seq, frame.delta) : JSON.stringify({ seq, ...frame });
}

export function encodeFrame(seq: number, frame: Frame): { json: string; sse: string } {
  const json = frameJson(seq, frame);
  return { json, sse: sseOfJson(seq, json) };
}

export function sseOfJson(seq: number, json: string): string {
  return `id: ${seq}\ndata: ${json}\n\n`;
}

/** The frame vocabulary as the OpenAPI notes (/docs) describe it. */
export const FRAME_DOC = [
  'SSE frames: each event is `id: <seq>` + `data: <json>`; seq numbers a turn\'s frames 1, 2, … (continuing after an ask_user answer).',
  '`turn` {turn_id, session_id, user_message_id, resumed?}: first frame.',
  '`activity` {activity: thinking | looking_up | writing}: what the agent does now.',
  '`text` {delta}: a piece of the answer (plain Markdown; declared widgets inline unless widget_stream).',
  '`tool_status` {status: running | completed | failed | awaiting_input | awaiting_approval | answered | timed_out, tool_call_id, name, question?, options?, case_id?, decision?, error?}.',
  '`widget` {widget_type, data}: a complete widget lifted out of the text (capability widget_stream).',
  '`citations` {citations: [...]}: the reply\'s citations, resolved and verified (match_type filled in).',
  '`error` {code, message}; `message` {message_id, interrupted}: the stored reply;',
  '`done` {status: completed | stopped | cancelled | failed | awaiting_input | awaiting_approval}: last frame of the stream (awaiting_*: suspended on ask_user / request_approval).',
].join(' ');
