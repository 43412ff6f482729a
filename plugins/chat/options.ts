// The plugin's manifest options (tuning knobs) and the model settings read
// from the environment (LLM_BASE_URL, LLM_API_KEY, LLM_MODEL: the API key is
// a secret and never goes through a manifest).
import Joi from 'joi';

export interface ChatOptions {
  /** How long an ask_user question waits for its answer before the agent gets a timed-out result (default 24 h). */
  askUserTimeoutSeconds: number;
  /** How often a runner writes the frames it published to Postgres (one row per turn per flush). */
  frameFlushMs: number;
  /** How often a process asks Postgres whether a cancel reached one of its running turns from another process. */
  cancelPollMs: number;
  /** How often a stream reader follows a turn that runs in another process. */
  followPollMs: number;
  /** How long a cancel answered `stopped` waits for the runner to finish the stop. */
  stopWaitMs: number;
  /** A runner process silent this long is dead: its running turns are finished as interrupted. */
  runnerStaleSeconds: number;
  /** Frames of turns that ended longer ago than this are deleted (the messages stay). */
  frameRetentionHours: number;
  /** Past messages of the session sent to the model with each question. */
  historyMessages: number;
  /** Requests to the model: attempts on 429/5xx/network errors before the first byte, and the back-off base. */
  modelAttempts: number;
  modelRetryBaseMs: number;
  /** A model request that sends nothing for this long fails. */
  modelIdleTimeoutMs: number;
  /** Largest tool result (characters of JSON) handed back to the model. */
  maxToolResultChars: number;
  /** A session without activity for this long ends (the sweep; 0: never): is_active false, chat.session.ended {reason: idle_timeout}. */
  sessionIdleTimeoutSeconds: number;
}

export const optionsSchema = Joi.object({
  askUserTimeoutSeconds: Joi.number().integer().min(1).max(30 * 86_400).default(86_400),
  frameFlushMs: Joi.number().integer().min(5).max(5_000).default(100),
  cancelPollMs: Joi.number().integer().min(10).max(10_000).default(100),
  followPollMs: Joi.number().integer().min(10).max(10_000).default(150),
  stopWaitMs: Joi.number().integer().min(0).max(60_000).default(5_000),
  runnerStaleSeconds: Joi.number().integer().min(5).max(3_600).default(30),
  frameRetentionHours: Joi.number().integer().min(1).max(24 * 3650).default(168),
  historyMessages: Joi.number().integer().min(0).max(1_000).default(40),
  modelAttempts: Joi.number().integer().min(1).max(10).default(4),
  modelRetryBaseMs: Joi.number().integer().min(1).max(60_000).default(500),
  modelIdleTimeoutMs: Joi.number().integer().min(100).max(3_600_000).default(120_000),
  maxToolResultChars: Joi.number().integer().min(100).max(1_000_000).default(20_000),
  sessionIdleTimeoutSeconds: Joi.number().integer().min(0).max(30 * 86_400).default(1_800),
}).default({});

export const defaultOptions: ChatOptions = optionsSchema.validate({}).value;

/** Per-tenant limits (environment: operators set them per deployment, not per manifest). */
export interface ChatLimits {
  /** Running chat turns of one tenant, counted in Postgres across processes (CHAT_MAX_CONCURRENT_TURNS_PER_TENANT). */
  maxTurnsPerTenant: number;
  /** Open SSE streams of one tenant in this process (CHAT_MAX_CONCURRENT_STREAMS_PER_TENANT). */
  maxStreamsPerTenant: number;
}

function positiveInt(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

export function chatLimitsFrom(env: Record<string, string | undefined>): ChatLimits {
  return {
    maxTurnsPerTenant: positiveInt(env, 'CHAT_MAX_CONCURRENT_TURNS_PER_TENANT', 20),
    maxStreamsPerTenant: positiveInt(env, 'CHAT_MAX_CONCURRENT_STREAMS_PER_TENANT', 100),
  };
}

export interface ModelSettings {
  /** Base URL of an OpenAI-compatible API, e.g. https://api.openai.com/v1; unset: the offline responder answers. */
  baseUrl: string | undefined;
  apiKey: string | undefined;
  model: string;
}

export function modelSettingsFrom(env: Record<string, string | undefined>): ModelSettings {
  const baseUrl = env.LLM_BASE_URL?.trim() || undefined;
  return {
    baseUrl: baseUrl?.replace(/\/+$/, ''),
    apiKey: env.LLM_API_KEY || undefined,
    model: env.LLM_MODEL?.trim() || 'gpt-4o-mini',
  };
}
