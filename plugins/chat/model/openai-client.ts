// An OpenAI-compatible chat-completions client: POST {base}/chat/completions
// with stream: true, text and tool-call deltas read from the SSE body as they
// arrive. A request that fails before its stream starts (429, 5xx, network)
// is retried with exponential back-off (Retry-After honoured, capped); once
// tokens have been handed on it is not (they cannot be taken back). Aborting
// the signal destroys the connection, so the server sees its stream closed
// and stops spending tokens.
//
// node:http rather than fetch: one stream costs a socket and a string buffer,
// with no web-stream machinery per chunk (the relay's per-token overhead).
import http from 'node:http';
import https from 'node:https';
import { SseReader } from './sse-lines.ts';
import { FlatText } from './flat-text.ts';
import { ModelError, isAbort, type ModelCall, type ModelClient, type ModelReply, type StreamOptions, type ToolCall } from './types.ts';

export interface OpenAiClientOptions {
  baseUrl: string;
  apiKey: string | undefined;
  attempts: number;
  retryBaseMs: number;
  idleTimeoutMs: number;
  /** For tests: the sleep between attempts. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

const MAX_RETRY_AFTER_MS = 30_000;
const MAX_ERROR_BODY = 16 * 1024;

const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: Infinity }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: Infinity }),
};

function abortError(): Error {
  const error = new Error('The model request was aborted');
  error.name = 'AbortError';
  return error;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortError());
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError());
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** A failure worth another attempt: the server was busy or away, nothing was streamed. */
class Retryable extends Error {
  readonly retryAfterMs: number | undefined;
  readonly status: number | undefined;
  constructor(message: string, status?: number, retryAfterMs?: number) {
    super(message);
    this.status = status;
    this.retryAfterMs = retryAfterMs;
  }
}

function retryAfter(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, MAX_RETRY_AFTER_MS);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.min(Math.max(0, at - Date.now()), MAX_RETRY_AFTER_MS);
}

/** Merges tool-call deltas (split across chunks, keyed by index) into whole calls. */
class ToolCallAssembler {
  private readonly calls: { id: string; name: string; arguments: FlatText }[] = [];

  add(deltas: { index?: number; id?: string; function?: { name?: string; arguments?: string } }[]): void {
    for (const delta of deltas) {
      const index = delta.index ?? this.calls.length;
      const call = (this.calls[index] ??= { id: '', name: '', arguments: new FlatText() });
      if (delta.id) call.id = delta.id;
      if (delta.function?.name) call.name += delta.function.name;
      if (delta.function?.arguments) call.arguments.append(delta.function.arguments);
    }
  }

  result(): ToolCall[] {
    return this.calls.filter(Boolean).map((call, i) => ({
      id: call.id || `call_${i}`,
      type: 'function' as const,
      function: { name: call.name, arguments: call.arguments.toString() || '{}' },
    }));
  }
}

export function createOpenAiClient(options: OpenAiClientOptions): ModelClient {
  const url = new URL(`${options.baseUrl}/chat/completions`);
  const transport = url.protocol === 'https:' ? https : http;
  const agent = agents[url.protocol as 'http:' | 'https:'];
  const pause = options.sleep ?? sleep;

  function attempt(body: string, stream: StreamOptions): Promise<ModelReply> {
    return new Promise<ModelReply>((resolve, reject) => {
      const headers: Record<string, string | number> = {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        'content-length': Buffer.byteLength(body),
      };
      if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
      let settled = false;
      const finish = (err: Error | undefined, reply?: ModelReply) => {
        if (settled) return;
        settled = true;
        clearTimeout(idle);
        stream.signal.removeEventListener('abort', onAbort);
        if (err) reject(err);
        else resolve(reply!);
      };
      const request = transport.request(url, { method: 'POST', headers, agent });
      const onAbort = () => {
        request.destroy();
        finish(abortError());
      };
      // A chunk only notes the time it came (a clock read, cheaper per token than a timer
      // refresh, which re-files the timer); the one timer, when it fires early, waits the rest.
      let heardAt = Date.now();
      const checkIdle = () => {
        const quiet = Date.now() - heardAt;
        if (quiet >= options.idleTimeoutMs) request.destroy(new ModelError('The model sent nothing for too long', 'MODEL_TIMEOUT'));
        else idle = setTimeout(checkIdle, options.idleTimeoutMs - quiet);
      };
      let idle = setTimeout(checkIdle, options.idleTimeoutMs);
      const touch = () => {
        heardAt = Date.now();
      };
      stream.signal.addEventListener('abort', onAbort, { once: true });

      request.on('error', (err) => {
        if (stream.signal.aborted) return finish(abortError());
        if (err instanceof ModelError) return finish(err);
        finish(new Retryable(`The model could not be reached (${(err as NodeJS.ErrnoException).code ?? err.message})`));
      });
      request.on('response', (response) => {
        touch();
        response.setEncoding('utf8');
        const status = response.statusCode ?? 0;
        if (status !== 200) {
          let text = '';
          response.on('data', (chunk: string) => {
            if (text.length < MAX_ERROR_BODY) text += chunk;
          });
          response.on('end', () => {
            const detail = text.slice(0, 300).replace(/\s+/g, ' ').trim();
            const message = `The model answered ${status}${detail ? `: ${detail}` : ''}`;
            if (status === 429 || status >= 500) finish(new Retryable(message, status, retryAfter(response.headers['retry-after'])));
            else finish(new ModelError(message, 'MODEL_ERROR', status));
          });
          response.on('error', () => finish(new Retryable(`The model answered ${status}`, status)));
          return;
        }
        const reader = new SseReader();
        const tools = new ToolCallAssembler();
        const text = new FlatText();
        let finishReason: string | null = null;
        let usage: ModelReply['usage'] = null;
        let done = false;
        let streamed = false;
        const handle = (data: string) => {
          if (data === '[DONE]') {
            done = true;
            return;
          }
          let chunk: any;
          try {
            chunk = JSON.parse(data);
          } catch {
            return; // not JSON: a keep-alive or a vendor extension
          }
          if (chunk.error) throw new ModelError(`The model failed: ${String(chunk.error.message ?? 'error').slice(0, 300)}`, 'MODEL_ERROR');
          if (chunk.usage) usage = { prompt_tokens: chunk.usage.prompt_tokens ?? 0, completion_tokens: chunk.usage.completion_tokens ?? 0 };
          const choice = chunk.choices?.[0];
          if (!choice) return;
          const delta = choice.delta ?? {};
          if (typeof delta.content === 'string' && delta.content !== '') {
            text.append(delta.content);
            streamed = true;
            stream.onText(delta.content);
          }
          if (Array.isArray(delta.tool_calls)) tools.add(delta.tool_calls);
          if (choice.finish_reason) finishReason = choice.finish_reason;
        };
        response.on('data', (chunk: string) => {
          touch();
          try {
            reader.feed(chunk, handle);
          } catch (err) {
            request.destroy();
            finish(err as Error);
          }
        });
        response.on('end', () => {
          try {
            reader.close(handle);
          } catch (err) {
            return finish(err as Error);
          }
          if (!done && finishReason === null) {
            const broken = new ModelError('The model stream ended before it was complete', 'MODEL_STREAM_BROKEN');
            return finish(streamed ? broken : new Retryable(broken.message));
          }
          finish(undefined, { text: text.toString(), toolCalls: tools.result(), finishReason, usage });
        });
        response.on('error', (err) => {
          if (stream.signal.aborted) return finish(abortError());
          const broken = new ModelError(`The model stream broke off (${err.message})`, 'MODEL_STREAM_BROKEN');
          finish(streamed ? broken : new Retryable(broken.message));
        });
      });
      request.end(body);
    });
  }

  return {
    async stream(call: ModelCall, stream: StreamOptions): Promise<ModelReply> {
      const body = JSON.stringify({
        model: call.model,
        messages: call.messages,
        ...(call.tools && call.tools.length > 0 ? { tools: call.tools } : {}),
        ...(call.temperature !== undefined ? { temperature: call.temperature } : {}),
        ...(call.top_p !== undefined ? { top_p: call.top_p } : {}),
        ...(call.max_tokens !== undefined ? { max_tokens: call.max_tokens } : {}),
        stream: true,
        stream_options: { include_usage: true },
      });
      for (let n = 1; ; n++) {
        if (stream.signal.aborted) throw abortError();
        try {
          return await attempt(body, stream);
        } catch (err) {
          if (isAbort(err) || !(err instanceof Retryable)) throw err;
          if (n >= options.attempts) {
            throw new ModelError(`${err.message} (after ${n} attempts)`, 'MODEL_UNAVAILABLE', err.status);
          }
          // Full jitter on an exponential base, or what the server asked for.
          const backoff = options.retryBaseMs * 2 ** (n - 1);
          await pause(err.retryAfterMs ?? Math.round(backoff / 2 + Math.random() * (backoff / 2)), stream.signal);
        }
      }
    },
  };
}
