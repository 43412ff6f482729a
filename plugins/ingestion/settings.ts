// Every setting of the ingestion plugin, read once from the environment
// (core.config.env) with the spec's defaults (section 8). The plugin README
// lists them. A malformed value fails the boot with one clear line.
import path from 'node:path';
import { createRequire } from 'node:module';
import { ConfigError } from 'agent-platform/sdk';

export type EmbeddingProvider = 'local' | 'endpoint' | 'none';

export interface IngestionSettings {
  chunkSize: number;
  chunkOverlap: number;
  tokenizer: string;
  embedding: {
    provider: EmbeddingProvider;
    model: string;
    dims: number;
    batch: number;
    retries: number;
    modelPath: string | undefined;
    baseUrl: string | undefined;
    apiKey: string | undefined;
  };
  maxConcurrent: number;
  quotaTtlSeconds: number;
  parseTimeoutSeconds: number;
  chunkTimeoutSeconds: number;
  embedTimeoutSeconds: number;
  ocrEnabled: boolean;
  ocrLangPath: string;
  ocrLanguages: string;
  maxDocSize: number;
  maxActivities: number;
  vlm: { enabled: boolean; model: string; maxTokens: number; maxDrawingPages: number; baseUrl: string | undefined; apiKey: string | undefined };
  visionRetrieval: {
    enabled: boolean;
    /** Enabled and an image-embedding endpoint configured: page images are kept, embedded and searched. */
    active: boolean;
    baseUrl: string | undefined;
    apiKey: string | undefined;
    model: string;
    dims: number;
  };
  pageImageDpi: number;
  maxRenderPages: number;
  unstructured: { url: string | undefined; apiKey: string | undefined; strategy: string };
  /** Attempts of a stage job that fails unexpectedly (database down, crash) before the document is failed. */
  stageRetries: number;
  /** Pending documents one reconciler pass starts at most (per tenant, within the free quota). */
  reconcileBatch: number;
  sync: {
    roots: string[];
    allowPrivateNetworks: boolean;
    maxUrlBytes: number;
    /** Syncs running at once in this process (of different tenants: one tenant's syncs run one at a time). */
    concurrency: number;
  };
  /** Heap limit of a parser thread (its resourceLimits): a document whose parse needs more fails, not the process. */
  parserMaxMemoryMb: number;
}

type Env = Record<string, string | undefined>;

function value(env: Env, name: string): string | undefined {
  const raw = env[name];
  return raw === undefined || raw.trim() === '' ? undefined : raw.trim();
}

function int(env: Env, name: string, fallback: number, min = 1, max = Number.MAX_SAFE_INTEGER): number {
  const raw = value(env, name);
  if (raw === undefined) return fallback;
  const parsed = Number(raw);
  if (!Number.isInteger(parsed) || parsed < min || parsed > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  }
  return parsed;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = value(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (['true', '1', 'yes', 'on'].includes(raw)) return true;
  if (['false', '0', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function url(env: Env, name: string): string | undefined {
  const raw = value(env, name);
  if (raw === undefined) return undefined;
  try {
    const parsed = new URL(raw);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('not http');
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL, got "${raw}"`);
  }
  return raw.replace(/\/+$/, '');
}

const TOKENIZERS = ['cl100k_base', 'o200k_base', 'p50k_base', 'r50k_base'];

/** The English traineddata shipped in an npm package: tesseract.js never fetches anything. */
function defaultLangPath(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
}

export function readSettings(env: Env, dataDir: string, overrides: { maxConcurrent?: number } = {}): IngestionSettings {
  const tokenizer = value(env, 'INGESTION_TOKENIZER') ?? 'cl100k_base';
  if (!TOKENIZERS.includes(tokenizer)) throw new ConfigError(`INGESTION_TOKENIZER must be one of ${TOKENIZERS.join(', ')}, got "${tokenizer}"`);
  const chunkSize = int(env, 'INGESTION_CHUNK_SIZE', 500, 16, 8192);
  const chunkOverlap = int(env, 'INGESTION_CHUNK_OVERLAP', 50, 0, 8192);
  if (chunkOverlap >= chunkSize) throw new ConfigError('INGESTION_CHUNK_OVERLAP must be smaller than INGESTION_CHUNK_SIZE');

  const modelPath = value(env, 'INGESTION_EMBEDDING_MODEL_PATH');
  const baseUrl = url(env, 'INGESTION_EMBEDDING_BASE_URL');
  const requested = value(env, 'INGESTION_EMBEDDING_PROVIDER') ?? 'auto';
  if (!['auto', 'local', 'endpoint', 'none'].includes(requested)) {
    throw new ConfigError(`INGESTION_EMBEDDING_PROVIDER must be auto, local, endpoint or none, got "${requested}"`);
  }
  const provider: EmbeddingProvider = requested === 'auto'
    ? (modelPath ? 'local' : baseUrl ? 'endpoint' : 'none')
    : (requested as EmbeddingProvider);
  if (provider === 'local' && !modelPath) throw new ConfigError('INGESTION_EMBEDDING_PROVIDER=local needs INGESTION_EMBEDDING_MODEL_PATH');
  if (provider === 'endpoint' && !baseUrl) throw new ConfigError('INGESTION_EMBEDDING_PROVIDER=endpoint needs INGESTION_EMBEDDING_BASE_URL');

  const roots = (value(env, 'INGESTION_SYNC_ROOTS') ?? path.join(dataDir, 'sync'))
    .split(',').map((root) => root.trim()).filter(Boolean).map((root) => path.resolve(root));

  const visionRetrievalEnabled = bool(env, 'INGESTION_VISION_RETRIEVAL_ENABLED', false);
  const imageEmbeddingUrl = url(env, 'INGESTION_IMAGE_EMBEDDING_BASE_URL');

  return {
    chunkSize,
    chunkOverlap,
    tokenizer,
    embedding: {
      provider,
      model: value(env, 'INGESTION_EMBEDDING_MODEL') ?? 'text-embedding-3-small',
      dims: int(env, 'INGESTION_EMBEDDING_DIMS', 1536, 1, 16000),
      batch: int(env, 'INGESTION_EMBEDDING_BATCH', 100, 1, 2048),
      retries: int(env, 'INGESTION_EMBEDDING_RETRIES', 3, 0, 20),
      modelPath: modelPath ? path.resolve(modelPath) : undefined,
      baseUrl,
      apiKey: value(env, 'INGESTION_EMBEDDING_API_KEY'),
    },
    maxConcurrent: overrides.maxConcurrent ?? int(env, 'INGESTION_MAX_CONCURRENT', 5),
    quotaTtlSeconds: int(env, 'INGESTION_QUOTA_TTL', 3600),
    parseTimeoutSeconds: int(env, 'INGESTION_PARSE_TIMEOUT', 600),
    chunkTimeoutSeconds: int(env, 'INGESTION_CHUNK_TIMEOUT', 120),
    embedTimeoutSeconds: int(env, 'INGESTION_EMBED_TIMEOUT', 300),
    ocrEnabled: bool(env, 'INGESTION_OCR_ENABLED', true),
    ocrLangPath: value(env, 'INGESTION_OCR_LANG_PATH') ?? defaultLangPath(),
    ocrLanguages: value(env, 'INGESTION_OCR_LANGUAGES') ?? 'eng',
    maxDocSize: int(env, 'INGESTION_MAX_DOC_SIZE', 52_428_800),
    maxActivities: int(env, 'INGESTION_MAX_ACTIVITIES', 2, 1, 64),
    vlm: {
      enabled: bool(env, 'INGESTION_VLM_ENABLED', false),
      model: value(env, 'INGESTION_VLM_MODEL') ?? 'gemini/gemini-3-flash',
      maxTokens: int(env, 'INGESTION_VLM_MAX_TOKENS', 8192),
      maxDrawingPages: int(env, 'INGESTION_MAX_DRAWING_PAGES', 100, 0),
      baseUrl: url(env, 'INGESTION_VLM_BASE_URL'),
      apiKey: value(env, 'INGESTION_VLM_API_KEY'),
    },
    visionRetrieval: {
      enabled: visionRetrievalEnabled,
      active: visionRetrievalEnabled && imageEmbeddingUrl !== undefined,
      baseUrl: imageEmbeddingUrl,
      apiKey: value(env, 'INGESTION_IMAGE_EMBEDDING_API_KEY'),
      model: value(env, 'INGESTION_IMAGE_EMBEDDING_MODEL') ?? 'clip-vit-b-32',
      dims: int(env, 'INGESTION_IMAGE_EMBEDDING_DIMS', 512, 1, 2000),
    },
    pageImageDpi: int(env, 'INGESTION_PAGE_IMAGE_DPI', 144, 36, 600),
    maxRenderPages: int(env, 'INGESTION_MAX_RENDER_PAGES', int(env, 'MAX_RENDER_PAGES', 300, 0), 0),
    unstructured: {
      url: url(env, 'UNSTRUCTURED_API_URL'),
      apiKey: value(env, 'UNSTRUCTURED_API_KEY'),
      strategy: value(env, 'UNSTRUCTURED_STRATEGY') ?? 'auto',
    },
    stageRetries: int(env, 'INGESTION_STAGE_RETRIES', 2, 0, 10),
    reconcileBatch: int(env, 'INGESTION_RECONCILE_BATCH', 10, 1, 1000),
    sync: {
      roots,
      allowPrivateNetworks: bool(env, 'INGESTION_SYNC_ALLOW_PRIVATE_NETWORKS', false),
      maxUrlBytes: int(env, 'INGESTION_MAX_DOC_SIZE', 52_428_800),
      concurrency: int(env, 'INGESTION_SYNC_CONCURRENCY', 4, 1, 64),
    },
    parserMaxMemoryMb: int(env, 'INGESTION_PARSER_MAX_MEMORY_MB', 1024, 64, 65536),
  };
}
