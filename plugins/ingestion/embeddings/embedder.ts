// The pluggable embedder: a local transformers.js model (offline), an
// OpenAI-compatible endpoint, or none (keyword search only). Chosen by
// settings (INGESTION_EMBEDDING_PROVIDER, or by which of
// INGESTION_EMBEDDING_MODEL_PATH / INGESTION_EMBEDDING_BASE_URL / a pulled
// model is there).
import type { IngestionSettings } from '../config/settings.ts';

export interface Embedder {
  /** Recorded on each embedded chunk: a query is only compared with vectors of the same model. */
  readonly model: string;
  /** Vectors of the texts, in order; throws when it cannot (enrichment records the failure). */
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
}

export async function createEmbedder(settings: IngestionSettings): Promise<Embedder | undefined> {
  const { embedding } = settings;
  if (embedding.provider === 'endpoint') {
    const { EndpointEmbedder } = await import('./endpoint.ts');
    return new EndpointEmbedder({
      baseUrl: embedding.baseUrl!, apiKey: embedding.apiKey, model: embedding.model, dims: embedding.dims,
      retries: embedding.retries,
    });
  }
  if (embedding.provider === 'local' && embedding.modelPath) {
    const { LocalEmbedder } = await import('./local.ts');
    return new LocalEmbedder(embedding.modelPath, embedding.pulledModel);
  }
  return undefined;
}

/** Unit length, so cosine distance and inner product agree and mixed sources compare fairly. */
export function normalize(vector: number[]): number[] {
  let sum = 0;
  for (const value of vector) sum += value * value;
  const norm = Math.sqrt(sum);
  return norm === 0 ? vector : vector.map((value) => value / norm);
}

/**
 * Page-image retrieval's embedder (INGESTION_VISION_RETRIEVAL_ENABLED with
 * INGESTION_IMAGE_EMBEDDING_BASE_URL): an OpenAI-compatible /embeddings
 * endpoint of a CLIP-style model that takes PNG data URLs and text queries in
 * `input` and answers vectors of one space. Undefined when off.
 */
export async function createImageEmbedder(settings: IngestionSettings): Promise<Embedder | undefined> {
  const { visionRetrieval } = settings;
  if (!visionRetrieval.active) return undefined;
  const { EndpointEmbedder } = await import('./endpoint.ts');
  return new EndpointEmbedder({
    baseUrl: visionRetrieval.baseUrl!, apiKey: visionRetrieval.apiKey, model: visionRetrieval.model, dims: visionRetrieval.dims,
    retries: settings.embedding.retries,
  });
}
