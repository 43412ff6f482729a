// One streamed turn: a question (or an ask_user answer) over SSE. A dropped
// connection resumes through the stream-resume endpoint from the last frame
// seen (`after=<seq>`, `turn_id`), and frames at or below that seq are
// ignored, so no text is lost or repeated.
import { ApiError, type ChatClient } from './client.ts';
import { readFrames } from './sse.ts';
import type { Frame } from './types.ts';

export interface TurnHandlers {
  onFrame(frame: Frame): void;
  onReconnecting(reconnecting: boolean): void;
}

const MAX_RESUMES = 8;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runTurn(
  client: ChatClient, sessionId: string, kind: 'ask' | 'answer', input: Record<string, unknown>,
  handlers: TurnHandlers, signal: AbortSignal,
): Promise<void> {
  let lastSeq = 0;
  let turnId: string | undefined;
  let ended = false;
  const onFrame = (frame: Frame) => {
    if (frame.seq <= lastSeq) return;
    lastSeq = frame.seq;
    if (frame.type === 'turn') turnId = frame.turn_id;
    if (frame.type === 'done') ended = true;
    handlers.onFrame(frame);
  };
  let response = await client.openStream(kind, sessionId, input, signal);
  for (let attempt = 0; ; attempt += 1) {
    try {
      await readFrames(response, onFrame);
    } catch (error) {
      if (signal.aborted) return;
      if (attempt >= MAX_RESUMES) throw error;
    }
    if (ended || signal.aborted) {
      handlers.onReconnecting(false);
      return;
    }
    if (lastSeq === 0 && kind === 'ask' && !turnId) throw new ApiError(0, 'the answer stream ended before it started', 'NETWORK');
    handlers.onReconnecting(true);
    response = await reopen(client, sessionId, lastSeq, turnId, signal, attempt);
  }
}

async function reopen(client: ChatClient, sessionId: string, after: number, turnId: string | undefined, signal: AbortSignal, attempt: number): Promise<Response> {
  for (let tries = attempt; ; tries += 1) {
    await sleep(Math.min(250 * 2 ** Math.min(tries, 4), 4000));
    try {
      return await client.openStream('resume', sessionId, { after, turnId }, signal);
    } catch (error) {
      if (signal.aborted || (error instanceof ApiError && error.status >= 400 && error.status < 500) || tries >= attempt + MAX_RESUMES) throw error;
    }
  }
}
