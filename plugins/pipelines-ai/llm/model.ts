// The platform's OpenAI-compatible model (LLM_BASE_URL, LLM_API_KEY,
// LLM_MODEL, as the chat plugin reads them), called through the core's
// outbound guard (core.http.fetch). One non-streamed completion per call; a
// server that streams anyway (text/event-stream) is read to its end. Errors
// name the status, never the key or the request.
import { domainError, type CoreServices } from 'agent-platform/sdk';
import { secretsFrom, type AiOptions } from '../options.ts';

export interface ChatMessage { role: 'system' | 'user' | 'assistant'; content: string }

export interface Model {
  complete(messages: ChatMessage[]): Promise<string>;
}

const MAX_REPLY_BYTES = 4 * 1024 * 1024;

function contentOfStream(text: string): string {
  let content = '';
  for (const line of text.split('\n')) {
    const data = line.startsWith('data:') ? line.slice(5).trim() : '';
    if (!data || data === '[DONE]') continue;
    try {
      content += (JSON.parse(data) as { choices?: { delta?: { content?: string } }[] }).choices?.[0]?.delta?.content ?? '';
    } catch {
      // A line that is not JSON carries no content.
    }
  }
  return content;
}

/** The model, or undefined when LLM_BASE_URL is unset (the deterministic paths answer; the others 503). */
export function createModel(core: CoreServices, options: AiOptions): Model | undefined {
  const baseUrl = options.llmBaseUrl.trim().replace(/\/+$/, '');
  if (!baseUrl) return undefined;
  const apiKey = secretsFrom(core.config.env).llmApiKey;
  const modelName = options.llmModel.trim() || 'gpt-4o-mini';
  const fetch = core.http.fetch({ allowPrivateNetworks: options.allowPrivateNetworks });
  return {
    async complete(messages) {
      let response: Response;
      try {
        response = await fetch(`${baseUrl}/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
          body: JSON.stringify({ model: modelName, messages, temperature: 0, stream: false }),
          signal: AbortSignal.timeout(options.modelTimeoutMs),
        });
      } catch (error) {
        if ((error as Error).name === 'TimeoutError') throw domainError(504, `The model did not answer within ${options.modelTimeoutMs} ms`, 'MODEL_TIMEOUT');
        throw domainError(502, 'The model could not be reached', 'MODEL_UNAVAILABLE');
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw domainError(502, `The model answered HTTP ${response.status}`, 'MODEL_UNAVAILABLE');
      }
      const text = await response.text();
      if (text.length > MAX_REPLY_BYTES) throw domainError(502, 'The model\'s answer is too large', 'MODEL_OUTPUT_INVALID');
      if ((response.headers.get('content-type') ?? '').includes('text/event-stream')) return contentOfStream(text);
      try {
        return (JSON.parse(text) as { choices?: { message?: { content?: string } }[] }).choices?.[0]?.message?.content ?? '';
      } catch {
        throw domainError(502, 'The model\'s answer is not a chat completion', 'MODEL_OUTPUT_INVALID');
      }
    },
  };
}

/** The JSON object of a model reply: bare, or in a ```json fence, or the outermost {...}. */
export function jsonOf(reply: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(reply)?.[1];
  const candidates = [fenced, reply, reply.slice(reply.indexOf('{'), reply.lastIndexOf('}') + 1)];
  for (const candidate of candidates) {
    if (!candidate?.trim()) continue;
    try {
      return JSON.parse(candidate);
    } catch {
      // next candidate
    }
  }
  return undefined;
}

/**
 * Asks for JSON and validates it (`check` answers the problems, none when
 * valid). Invalid output gets one repair round-trip naming the problems;
 * still invalid: 502 MODEL_OUTPUT_INVALID naming them. Nothing unvalidated is
 * ever returned.
 */
export async function askJson<T>(model: Model, messages: ChatMessage[], check: (value: unknown) => Promise<string[]>): Promise<T> {
  let conversation = messages;
  for (let attempt = 0; ; attempt++) {
    const reply = await model.complete(conversation);
    const value = jsonOf(reply);
    const problems = value === undefined || typeof value !== 'object' || value === null ? ['the answer is not a JSON object'] : await check(value);
    if (!problems.length) return value as T;
    if (attempt === 1) throw domainError(502, `The model's output is invalid (after one repair): ${problems.join('; ').slice(0, 2000)}`, 'MODEL_OUTPUT_INVALID');
    conversation = [
      ...conversation,
      { role: 'assistant', content: reply },
      { role: 'user', content: `Your answer is invalid: ${problems.join('; ')}. Answer again with the corrected JSON object only.` },
    ];
  }
}

export function modelRequired(model: Model | undefined, what: string): Model {
  if (!model) throw domainError(503, `No model is configured (LLM_BASE_URL): ${what} needs one`, 'MODEL_NOT_CONFIGURED');
  return model;
}
