// The AI plugin's manifest options (joi: validated at boot), the model's
// address and name among them (LLM_BASE_URL and LLM_MODEL in the default
// manifest, shared with chat), and its one secret, LLM_API_KEY, read from the
// environment here and nowhere else: a secret never goes through a manifest.
import Joi from 'joi';
import type { EnvironmentSecret } from 'agent-platform/sdk';

export const optionsSchema = Joi.object({
  /** PIPELINES_AI_ALLOW_PRIVATE_NETWORKS: the model endpoint may be a loopback or private address (a model served in the cluster). */
  allowPrivateNetworks: Joi.boolean().default(false)
    .description('The model of the `/api/v1/ai` endpoints (`LLM_BASE_URL`) may be a loopback or private address'),
  /** PIPELINES_AI_MODEL_TIMEOUT_MS: one model request longer than this fails (504 MODEL_TIMEOUT). */
  modelTimeoutMs: Joi.number().integer().min(1000).max(600_000).default(60_000)
    .description('One model request of the `/api/v1/ai` endpoints longer than this fails (504 `MODEL_TIMEOUT`)'),
  /** PIPELINES_AI_COMPOSE_RETRY_LIMIT: retries of a compose-pipeline job whose worker died (heartbeat) or that expired. */
  composeRetryLimit: Joi.number().integer().min(0).max(20).default(2)
    .description('Retries of an `/ai/compose-pipeline` job whose worker died or that expired; out of attempts the execution fails with `COMPOSE_ABORTED`'),
  /** PIPELINES_AI_SAMPLE_ROWS: rows of a dataset read to profile its columns. */
  sampleRows: Joi.number().integer().min(1).max(10_000).default(200)
    .description('Rows of a dataset sampled to profile its columns (AI suggestions)'),
  /** LLM_MODEL: the model asked. */
  llmModel: Joi.string().trim().allow('').default('gpt-4o-mini')
    .description('Default model of agents that do not name one'),
  /** LLM_BASE_URL: an OpenAI-compatible API base including /v1; empty: no model (the deterministic paths answer, the others 503). */
  llmBaseUrl: Joi.string().trim().allow('').default('')
    .description('OpenAI-compatible API base including `/v1`; unset, chat answers extractively from the tenant\'s documents').meta({ whenUnset: 'offline responder' }),
});

export interface AiOptions {
  allowPrivateNetworks: boolean;
  modelTimeoutMs: number;
  composeRetryLimit: number;
  sampleRows: number;
  llmModel: string;
  llmBaseUrl: string;
}

/** Secrets, read from the environment by secretsFrom and nowhere else. */
export const secrets: readonly EnvironmentSecret[] = [
  { variable: 'LLM_API_KEY', description: 'Bearer key of that API (never logged)' },
];

export function secretsFrom(env: Record<string, string | undefined>): { llmApiKey: string | undefined } {
  return { llmApiKey: env.LLM_API_KEY || undefined };
}
