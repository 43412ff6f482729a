// An OpenAI-compatible embeddings endpoint: POST {base}/embeddings with
// {model, input, dimensions?}. Retries (INGESTION_EMBEDDING_RETRIES) on
// network errors, 429 and 5xx with exponential back-off (honouring a
// Retry-After of up to 30 s); a 4xx other than 429 is not retried. The API key
// goes only into the Authorization header, never into an error message.
import { normalize, type Embedder } from './embedder.ts';

export interface EndpointOptions {
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  dims: number;
  retries: number;
  /** First back-off step; doubled at each retry. */
  backoffMs?: number;
}

class EmbeddingHttpError extends Error {
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;
  constructor(message: string, retryable: boolean, retryAfterMs?: number) {
    super(message);
    this.retryable = retryable;
    this.retryAfterMs = retryAfterMs;
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    }, { once: true });
  });
}

export class EndpointEmbedder implements Embedder {
  readonly model: string;
  private readonly options: EndpointOptions;

  constructor(options: EndpointOptions) {
    this.options = options;
    this.model = options.model;
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    if (texts.length === 0) return [];
    let attempt = 0;
    for (;;) {
      try {
        return await this.once(texts, signal);
      } catch (err) {
        signal?.throwIfAborted();
        const retryable = !(err instanceof EmbeddingHttpError) || err.retryable;
        if (!retryable || attempt >= this.options.retries) throw err;
        const backoff = (this.options.backoffMs ?? 500) * 2 ** attempt;
        const hinted = err instanceof EmbeddingHttpError ? err.retryAfterMs : undefined;
        await sleep(Math.min(30_000, hinted ?? backoff), signal);
        attempt++;
      }
    }
  }

  private async once(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    let response: Response;
    try {
      response = await fetch(`${this.options.baseUrl}/embeddings`, {
        method: 'POST', headers, signal,
        body: JSON.stringify({ model: this.options.model, input: texts, dimensions: this.options.dims, encoding_format: 'float' }),
      });
    } catch (err) {
      signal?.throwIfAborted();
      throw new Error(`embeddings endpoint unreachable: ${(err as Error).message}`);
    }
    if (!response.ok) {
      const retryAfter = Number(response.headers.get('retry-after'));
      await response.body?.cancel();
      throw new EmbeddingHttpError(
        `embeddings endpoint answered ${response.status}`,
        response.status === 429 || response.status >= 500,
        Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : undefined,
      );
    }
    const body = await response.json() as { data?: { index?: number; embedding?: unknown }[] };
    const data = Array.isArray(body.data) ? body.data : [];
    if (data.length !== texts.length) throw new Error(`embeddings endpoint returned ${data.length} vectors for ${texts.length} inputs`);
    const ordered = [...data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
    return ordered.map((item) => {
      const vector = item.embedding;
      if (!Array.isArray(vector) || vector.length !== this.options.dims || !vector.every((v) => typeof v === 'number')) {
        throw new Error(`embeddings endpoint returned a vector that is not ${this.options.dims} numbers`);
      }
      return normalize(vector as number[]);
    });
  }
}
