// A real OpenAI-compatible embeddings server on loopback for the tests:
// POST /v1/embeddings → deterministic bag-of-words vectors (words hashed into
// `dims` buckets), so similar texts get similar vectors. It can fail (500) or
// hold requests until released, and records what it was asked.
import http from 'node:http';
import { createHash } from 'node:crypto';
import type { Tap } from 'agent-platform/sdk/testing';

export function bagOfWords(text: string, dims: number): number[] {
  const vector = new Array<number>(dims).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const bucket = createHash('sha1').update(word).digest().readUInt32BE(0) % dims;
    vector[bucket] += 1;
  }
  const norm = Math.sqrt(vector.reduce((sum, v) => sum + v * v, 0)) || 1;
  return vector.map((v) => v / norm);
}

export interface EmbeddingsServer {
  url: string;
  requests: { inputs: string[]; model: string; authorization: string | undefined }[];
  mode: 'ok' | 'fail' | 'hold';
  /** Lets held requests (and later ones) through. */
  release(): void;
  held(): number;
}

export async function startEmbeddingsServer(t: Tap, dims: number): Promise<EmbeddingsServer> {
  let waiting: (() => void)[] = [];
  const state: EmbeddingsServer = {
    url: '',
    requests: [],
    mode: 'ok',
    release() {
      state.mode = 'ok';
      for (const go of waiting.splice(0)) go();
    },
    held: () => waiting.length,
  };
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', async () => {
      if (request.url !== '/v1/embeddings' || request.method !== 'POST') {
        response.writeHead(404).end();
        return;
      }
      const parsed = JSON.parse(body) as { input: string[]; model: string };
      state.requests.push({ inputs: parsed.input, model: parsed.model, authorization: request.headers.authorization });
      if (state.mode === 'hold') await new Promise<void>((resolve) => waiting.push(resolve));
      if (state.mode === 'fail') {
        response.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"down"}');
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
        object: 'list', model: parsed.model,
        data: parsed.input.map((text, index) => ({ object: 'embedding', index, embedding: bagOfWords(text, dims) })),
      }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
  t.teardown(() => {
    state.release();
    waiting = [];
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return state;
}
