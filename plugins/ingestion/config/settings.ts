// The ingestion plugin's settings as its code uses them, derived from its
// manifest options (options.ts, validated at boot) and, for the API keys,
// from the environment: a secret never goes through a manifest. The plugin
// README lists every setting with its variable.
import path from 'node:path';
import { createRequire } from 'node:module';
import type { EnvironmentSecret } from 'agent-platform/sdk';
import { activeModelName, isModelName, modelFolder, modelsDirOf, pulledModelInfo } from '../models/folders.ts';
import { EMBEDDING_ENDPOINT_DESCRIPTION, UNSTRUCTURED_DESCRIPTION, type IngestionOptions } from '../options.ts';

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
    /** The local model's folder: INGESTION_EMBEDDING_MODEL_PATH, or a pulled model's (undefined with provider local: no model). */
    modelPath: string | undefined;
    /** The name of the pulled model the local embedder loads (modelPath is its folder); undefined otherwise. */
    pulledModel: string | undefined;
    baseUrl: string | undefined;
    apiKey: string | undefined;
  };
  /** Pulled embedding models (`platform models pull`): `<data dir>/models`, and the hub they come from. */
  models: { dir: string; hubUrl: string };
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
    /** Syncs running at once in this process (of different tenants: one tenant's syncs run one at a time). */
    concurrency: number;
  };
  /** Heap limit of a parser child process (--max-old-space-size): a document whose parse needs more fails, not the server. */
  parserMaxMemoryMb: number;
}

type Env = Record<string, string | undefined>;

/**
 * The API keys: secrets, read from the environment here and nowhere else
 * (never through a manifest; empty counts as unset). A key without a
 * description is described in the plugin's README only.
 */
export const secrets: readonly EnvironmentSecret[] = [
  { variable: 'INGESTION_EMBEDDING_API_KEY', description: EMBEDDING_ENDPOINT_DESCRIPTION },
  { variable: 'INGESTION_VLM_API_KEY' },
  { variable: 'INGESTION_IMAGE_EMBEDDING_API_KEY' },
  { variable: 'UNSTRUCTURED_API_KEY', description: UNSTRUCTURED_DESCRIPTION },
];

const secret = (env: Env, name: string) => env[name] || undefined;

/** An http(s) URL as the code appends paths to it. */
const base = (url: string | undefined) => url?.replace(/\/+$/, '');

/** The English traineddata shipped in an npm package: tesseract.js never fetches anything. */
function defaultLangPath(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
}

/**
 * The pulled model the local embedder would load without a model path:
 * INGESTION_EMBEDDING_MODEL when it names a pulled model, else the one the
 * last `platform models pull` made the embedding model.
 */
function pulledModelOf(options: IngestionOptions, modelsDir: string): string | undefined {
  if (isModelName(options.embeddingModel) && pulledModelInfo(modelsDir, options.embeddingModel)) return options.embeddingModel;
  return activeModelName(modelsDir);
}

export function settingsOf(options: IngestionOptions, env: Env, dataDir: string): IngestionSettings {
  const modelsDir = modelsDirOf(dataDir);
  const baseUrl = base(options.embeddingBaseUrl);
  // A model path or an endpoint, when set, wins over a pulled model.
  const pulled = options.embeddingModelPath || (options.embeddingProvider === 'auto' && baseUrl) || options.embeddingProvider === 'endpoint'
    || options.embeddingProvider === 'none' ? undefined : pulledModelOf(options, modelsDir);
  const modelPath = options.embeddingModelPath ?? (pulled ? modelFolder(modelsDir, pulled) : undefined);
  const provider: EmbeddingProvider = options.embeddingProvider === 'auto'
    ? (options.embeddingModelPath ? 'local' : baseUrl ? 'endpoint' : pulled ? 'local' : 'none')
    : options.embeddingProvider;
  const roots = (options.syncRoots ?? path.join(dataDir, 'sync'))
    .split(',').map((root) => root.trim()).filter(Boolean).map((root) => path.resolve(root));
  const imageEmbeddingUrl = base(options.imageEmbeddingBaseUrl);

  return {
    chunkSize: options.chunkSize,
    chunkOverlap: options.chunkOverlap,
    tokenizer: options.tokenizer,
    embedding: {
      provider,
      model: options.embeddingModel,
      dims: options.embeddingDims,
      batch: options.embeddingBatch,
      retries: options.embeddingRetries,
      modelPath: modelPath ? path.resolve(modelPath) : undefined,
      pulledModel: pulled,
      baseUrl,
      apiKey: secret(env, 'INGESTION_EMBEDDING_API_KEY'),
    },
    models: { dir: modelsDir, hubUrl: base(options.modelsHubUrl)! },
    maxConcurrent: options.maxConcurrent,
    quotaTtlSeconds: options.quotaTtlSeconds,
    parseTimeoutSeconds: options.parseTimeoutSeconds,
    chunkTimeoutSeconds: options.chunkTimeoutSeconds,
    embedTimeoutSeconds: options.embedTimeoutSeconds,
    ocrEnabled: options.ocrEnabled,
    ocrLangPath: options.ocrLangPath ?? defaultLangPath(),
    ocrLanguages: options.ocrLanguages,
    maxDocSize: options.maxDocSize,
    maxActivities: options.maxActivities,
    vlm: {
      enabled: options.vlmEnabled,
      model: options.vlmModel,
      maxTokens: options.vlmMaxTokens,
      maxDrawingPages: options.maxDrawingPages,
      baseUrl: base(options.vlmBaseUrl),
      apiKey: secret(env, 'INGESTION_VLM_API_KEY'),
    },
    visionRetrieval: {
      enabled: options.visionRetrievalEnabled,
      active: options.visionRetrievalEnabled && imageEmbeddingUrl !== undefined,
      baseUrl: imageEmbeddingUrl,
      apiKey: secret(env, 'INGESTION_IMAGE_EMBEDDING_API_KEY'),
      model: options.imageEmbeddingModel,
      dims: options.imageEmbeddingDims,
    },
    pageImageDpi: options.pageImageDpi,
    maxRenderPages: options.maxRenderPagesOverride ?? options.maxRenderPages,
    unstructured: {
      url: base(options.unstructuredApiUrl),
      apiKey: secret(env, 'UNSTRUCTURED_API_KEY'),
      strategy: options.unstructuredStrategy,
    },
    stageRetries: options.stageRetries,
    reconcileBatch: options.reconcileBatch,
    sync: {
      roots,
      allowPrivateNetworks: options.syncAllowPrivateNetworks,
      concurrency: options.syncConcurrency,
    },
    parserMaxMemoryMb: options.parserMaxMemoryMb,
  };
}

/** Why the configured embedder cannot be made (the server does not start), or undefined. */
export function embeddingProblem(settings: IngestionSettings): string | undefined {
  if (settings.embedding.provider !== 'local' || settings.embedding.modelPath) return undefined;
  return 'INGESTION_EMBEDDING_PROVIDER is local but there is no model: set INGESTION_EMBEDDING_MODEL_PATH to a model folder, '
    + 'or pull one (platform models pull <name>)';
}
