// The shapes of an OpenAI-compatible chat-completions conversation, as the
// turn runner keeps it (and persists it while a turn waits for an answer).

export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type ModelMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface ToolSpec {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface ModelCall {
  model: string;
  messages: ModelMessage[];
  tools?: ToolSpec[];
  temperature?: number;
  top_p?: number;
  max_tokens?: number;
}

export interface ModelUsage {
  prompt_tokens: number;
  completion_tokens: number;
}

export interface ModelReply {
  text: string;
  toolCalls: ToolCall[];
  finishReason: string | null;
  /** As reported by the server (stream_options.include_usage), else null. */
  usage: ModelUsage | null;
}

export interface StreamOptions {
  signal: AbortSignal;
  /** Each text delta, as it arrives. */
  onText(delta: string): void;
}

export interface ModelClient {
  /** Streams one completion; throws ModelError (or an AbortError when `signal` aborts). */
  stream(call: ModelCall, options: StreamOptions): Promise<ModelReply>;
}

export class ModelError extends Error {
  override name = 'ModelError';
  readonly code: string;
  readonly status: number | undefined;
  constructor(message: string, code: string, status?: number) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

export function isAbort(err: unknown): boolean {
  return (err as { name?: string })?.name === 'AbortError' || (err as { code?: string })?.code === 'ABORT_ERR';
}
