// The AI plugin's manifest options (joi: validated at boot). The model itself
// is the platform's: LLM_BASE_URL, LLM_API_KEY, LLM_MODEL (read from the
// environment: the key is a secret and never goes through a manifest).
import Joi from 'joi';

export const optionsSchema = Joi.object({
  /** PIPELINES_AI_ALLOW_PRIVATE_NETWORKS: the model endpoint may be a loopback or private address (a model served in the cluster). */
  allowPrivateNetworks: Joi.boolean().default(false),
  /** PIPELINES_AI_MODEL_TIMEOUT_MS: one model request longer than this fails (504 MODEL_TIMEOUT). */
  modelTimeoutMs: Joi.number().integer().min(1000).max(600_000).default(60_000),
  /** PIPELINES_AI_COMPOSE_RETRY_LIMIT: retries of a compose-pipeline job whose worker died (heartbeat) or that expired. */
  composeRetryLimit: Joi.number().integer().min(0).max(20).default(2),
  /** PIPELINES_AI_SAMPLE_ROWS: rows of a dataset read to profile its columns. */
  sampleRows: Joi.number().integer().min(1).max(10_000).default(200),
});

export interface AiOptions {
  allowPrivateNetworks: boolean;
  modelTimeoutMs: number;
  composeRetryLimit: number;
  sampleRows: number;
}
