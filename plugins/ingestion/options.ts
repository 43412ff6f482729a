// The ingestion plugin's manifest options: every INGESTION_* setting (and
// MAX_RENDER_PAGES, UNSTRUCTURED_*), with the defaults of the README's tables. manifests/default.yaml feeds each one from
// its environment variable (`chunkSize: ${INGESTION_CHUNK_SIZE:500}`), so
// operators keep setting the same variables. Each key is labelled with its
// variable: a malformed value fails the boot with one line naming both
// (`plugin "ingestion" has an invalid option: chunkSize (INGESTION_CHUNK_SIZE)
// must be at most 8192, got 99999`).
//
// API keys are not options: a secret never goes through a manifest (as chat's
// LLM_API_KEY). config/settings.ts reads them from the environment.
import Joi from 'joi';

const TOKENIZERS = ['cl100k_base', 'o200k_base', 'p50k_base', 'r50k_base'] as const;
const EMBEDDING_PROVIDERS = ['auto', 'local', 'endpoint', 'none'] as const;

export interface IngestionOptions {
  chunkSize: number;
  chunkOverlap: number;
  tokenizer: (typeof TOKENIZERS)[number];
  /** auto: local with a model path, else endpoint with a base URL, else local with a pulled model, else none (keyword search only). */
  embeddingProvider: (typeof EMBEDDING_PROVIDERS)[number];
  /** The endpoint's model; or the name of a pulled model (`platform models pull`), which the local embedder then loads. */
  embeddingModel: string;
  embeddingModelPath?: string;
  embeddingBaseUrl?: string;
  embeddingDims: number;
  embeddingBatch: number;
  embeddingRetries: number;
  /** Runs in flight per tenant (default 5). */
  maxConcurrent: number;
  /** A quota slot older than this belongs to a run that died: it stops counting. */
  quotaTtlSeconds: number;
  parseTimeoutSeconds: number;
  chunkTimeoutSeconds: number;
  embedTimeoutSeconds: number;
  ocrEnabled: boolean;
  /** Folder of gzipped traineddata; unset: English from @tesseract.js-data/eng. */
  ocrLangPath?: string;
  ocrLanguages: string;
  maxDocSize: number;
  /** Stage jobs running at once in this process. */
  maxActivities: number;
  vlmEnabled: boolean;
  vlmModel: string;
  vlmMaxTokens: number;
  vlmBaseUrl?: string;
  maxDrawingPages: number;
  visionRetrievalEnabled: boolean;
  imageEmbeddingBaseUrl?: string;
  imageEmbeddingModel: string;
  imageEmbeddingDims: number;
  pageImageDpi: number;
  /** MAX_RENDER_PAGES (a variable without the INGESTION_ prefix). */
  maxRenderPages: number;
  /** INGESTION_MAX_RENDER_PAGES: wins over maxRenderPages when set. */
  maxRenderPagesOverride?: number;
  unstructuredApiUrl?: string;
  unstructuredStrategy: string;
  /** Attempts of a stage job that fails unexpectedly (database down, crash) before the document is failed. */
  stageRetries: number;
  /** Pending documents one reconciler pass starts at most (per tenant, within the free quota). */
  reconcileBatch: number;
  /** Comma-separated folders; unset: `<data dir>/sync`. */
  syncRoots?: string;
  syncAllowPrivateNetworks: boolean;
  /** Syncs running at once in this process (of different tenants: one tenant's syncs run one at a time). */
  syncConcurrency: number;
  /** Heap limit of a parser child process (--max-old-space-size): a document whose parse needs more fails, not the server. */
  parserMaxMemoryMb: number;
  /** The Hugging Face compatible hub `platform models pull` downloads from. */
  modelsHubUrl: string;
}

/** A string option that also takes what YAML typed as a number or boolean (`${VAR}` values are typed by YAML). */
const Text = Joi.extend((joi) => ({
  type: 'text',
  base: joi.string().trim(),
  coerce: { from: ['number', 'boolean'], method: (value: unknown) => ({ value: String(value) }) },
}));

/** The manifest placeholders resolve an unset variable to '': the option is then unset. */
const text = () => Text.text().empty('');
const url = () => Joi.string().trim().uri({ scheme: ['http', 'https'] }).empty('');
const int = (min: number, max: number) => Joi.number().integer().min(min).max(max).empty('');
const flag = () => Joi.boolean().truthy('yes', 'on', 1).falsy('no', 'off', 0).empty('');
const oneOf = (values: readonly string[]) => Joi.string().valid(...values).empty('');

/** What an embedding endpoint and its key are for (an option and a secret: one row of the settings table). */
export const EMBEDDING_ENDPOINT_DESCRIPTION = 'An OpenAI-compatible `/embeddings` endpoint instead; with neither (nor a pulled model: `platform models pull`), search is keyword and fuzzy only (said in `/readyz`)';
/** What an Unstructured server and its key are for (an option and a secret: one row of the settings table). */
export const UNSTRUCTURED_DESCRIPTION = 'Parse through an Unstructured server instead of the built-in parsers';

/**
 * Each option with the environment variable manifests/default.yaml feeds it
 * from, and its schema. The plugin README describes them; those with a
 * description are also rows of the root README's settings table.
 */
const settings = {
  chunkSize: ['INGESTION_CHUNK_SIZE', int(16, 8192).default(500)],
  chunkOverlap: ['INGESTION_CHUNK_OVERLAP', int(0, 8192).less(Joi.ref('chunkSize')).default(50)
    .messages({ 'number.less': '{{#label}} must be smaller than chunkSize (INGESTION_CHUNK_SIZE)' })],
  tokenizer: ['INGESTION_TOKENIZER', oneOf(TOKENIZERS).default('cl100k_base')],
  embeddingProvider: ['INGESTION_EMBEDDING_PROVIDER', oneOf(EMBEDDING_PROVIDERS).default('auto')],
  embeddingModel: ['INGESTION_EMBEDDING_MODEL', text().default('text-embedding-3-small')],
  embeddingModelPath: ['INGESTION_EMBEDDING_MODEL_PATH', text()
    .description('A local transformers.js (ONNX) embedding model directory; unset: the model `platform models pull` installed (or INGESTION_EMBEDDING_MODEL naming a pulled one), if any')],
  embeddingBaseUrl: ['INGESTION_EMBEDDING_BASE_URL', url().when('embeddingProvider', { is: 'endpoint', then: Joi.required() })
    .messages({ 'any.required': '{{#label}} is needed with embeddingProvider (INGESTION_EMBEDDING_PROVIDER) endpoint' })
    .description(EMBEDDING_ENDPOINT_DESCRIPTION)],
  embeddingDims: ['INGESTION_EMBEDDING_DIMS', int(1, 16000).default(1536)],
  embeddingBatch: ['INGESTION_EMBEDDING_BATCH', int(1, 2048).default(100)],
  embeddingRetries: ['INGESTION_EMBEDDING_RETRIES', int(0, 20).default(3)],
  maxConcurrent: ['INGESTION_MAX_CONCURRENT', int(1, 10_000).default(5)],
  quotaTtlSeconds: ['INGESTION_QUOTA_TTL', int(1, 7 * 86_400).default(3600)],
  parseTimeoutSeconds: ['INGESTION_PARSE_TIMEOUT', int(1, 86_400).default(600)],
  chunkTimeoutSeconds: ['INGESTION_CHUNK_TIMEOUT', int(1, 86_400).default(120)],
  embedTimeoutSeconds: ['INGESTION_EMBED_TIMEOUT', int(1, 86_400).default(300)],
  ocrEnabled: ['INGESTION_OCR_ENABLED', flag().default(true)],
  ocrLangPath: ['INGESTION_OCR_LANG_PATH', text()],
  ocrLanguages: ['INGESTION_OCR_LANGUAGES', text().pattern(/^[a-z_]+(\+[a-z_]+)*$/i).default('eng')
    .messages({ 'string.pattern.base': '{{#label}} must be language codes joined by + (eng+por), got "{{#value}}"' })],
  maxDocSize: ['INGESTION_MAX_DOC_SIZE', int(1, Number.MAX_SAFE_INTEGER).default(52_428_800)],
  maxActivities: ['INGESTION_MAX_ACTIVITIES', int(1, 64).default(2)],
  vlmEnabled: ['INGESTION_VLM_ENABLED', flag().default(false)],
  vlmModel: ['INGESTION_VLM_MODEL', text().default('gemini/gemini-3-flash')],
  vlmMaxTokens: ['INGESTION_VLM_MAX_TOKENS', int(1, 1_000_000).default(8192)],
  vlmBaseUrl: ['INGESTION_VLM_BASE_URL', url()],
  maxDrawingPages: ['INGESTION_MAX_DRAWING_PAGES', int(0, 100_000).default(100)],
  visionRetrievalEnabled: ['INGESTION_VISION_RETRIEVAL_ENABLED', flag().default(false)],
  imageEmbeddingBaseUrl: ['INGESTION_IMAGE_EMBEDDING_BASE_URL', url()],
  imageEmbeddingModel: ['INGESTION_IMAGE_EMBEDDING_MODEL', text().default('clip-vit-b-32')],
  imageEmbeddingDims: ['INGESTION_IMAGE_EMBEDDING_DIMS', int(1, 2000).default(512)],
  pageImageDpi: ['INGESTION_PAGE_IMAGE_DPI', int(36, 600).default(144)],
  maxRenderPages: ['MAX_RENDER_PAGES', int(0, 100_000).default(300)],
  maxRenderPagesOverride: ['INGESTION_MAX_RENDER_PAGES', int(0, 100_000)],
  unstructuredApiUrl: ['UNSTRUCTURED_API_URL', url().description(UNSTRUCTURED_DESCRIPTION)],
  unstructuredStrategy: ['UNSTRUCTURED_STRATEGY', text().default('auto')],
  stageRetries: ['INGESTION_STAGE_RETRIES', int(0, 10).default(2)],
  reconcileBatch: ['INGESTION_RECONCILE_BATCH', int(1, 1000).default(10)],
  syncRoots: ['INGESTION_SYNC_ROOTS', text()],
  syncAllowPrivateNetworks: ['INGESTION_SYNC_ALLOW_PRIVATE_NETWORKS', flag().default(false)],
  syncConcurrency: ['INGESTION_SYNC_CONCURRENCY', int(1, 64).default(4)],
  parserMaxMemoryMb: ['INGESTION_PARSER_MAX_MEMORY_MB', int(64, 65_536).default(1024)],
  modelsHubUrl: ['MODELS_HUB_URL', url().default('https://huggingface.co')
    .description('The Hugging Face compatible hub `platform models pull` downloads embedding models from (`<hub>/<name>/resolve/main/<file>`)')],
} satisfies Record<keyof IngestionOptions, [string, Joi.Schema]>;

/** The environment variable of each option (what manifests pass as `${VARIABLE:default}`). */
export const OPTION_VARIABLES = Object.fromEntries(Object.entries(settings).map(([key, [variable]]) => [key, variable])) as Record<keyof IngestionOptions, string>;

export const optionsSchema = Joi.object(Object.fromEntries(Object.entries(settings)
  .map(([key, [variable, schema]]) => [key, schema.label(`${key} (${variable})`)])))
  .default({})
  .prefs({
    errors: { wrap: { label: false, array: false } },
    messages: {
      'number.base': '{{#label}} must be a number, got "{{#value}}"',
      'number.integer': '{{#label}} must be an integer, got {{#value}}',
      'number.min': '{{#label}} must be at least {{#limit}}, got {{#value}}',
      'number.max': '{{#label}} must be at most {{#limit}}, got {{#value}}',
      'boolean.base': '{{#label}} must be true or false, got "{{#value}}"',
      'any.only': '{{#label}} must be one of {{#valids}}, got "{{#value}}"',
      // A URL is not repeated: it may carry credentials.
      'string.uri': '{{#label}} must be an http(s) URL',
      'string.uriCustomScheme': '{{#label}} must be an http(s) URL',
    },
  });

/** The options of a manifest that gives none: every default. */
export const defaultOptions = (): IngestionOptions => {
  const { value, error } = optionsSchema.validate({});
  if (error) throw error;
  return value;
};
