// The plugin's manifest options (tuning knobs, per-tenant limits, the model)
// and its one secret, LLM_API_KEY, read from the environment here and nowhere
// else: a secret never goes through a manifest.
import Joi from 'joi';
import type { EnvironmentSecret } from 'agent-platform/sdk';

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
  /** Running chat turns of one tenant, counted in Postgres across processes. */
  maxConcurrentTurnsPerTenant: number;
  /** Open SSE streams of one tenant, in all processes together. */
  maxConcurrentStreamsPerTenant: number;
  /** Default model of agents that do not name one. */
  llmModel: string;
  /** Base URL of an OpenAI-compatible API, e.g. https://api.openai.com/v1; empty: the offline responder answers. */
  llmBaseUrl: string;
}

export const optionsSchema = Joi.object({
  askUserTimeoutSeconds: Joi.number().integer().min(1).max(30 * 86_400).default(86_400)
    .description('How long an `ask_user` question waits before the agent gets a timed-out result'),
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
  sessionIdleTimeoutSeconds: Joi.number().integer().min(0).max(30 * 86_400).default(1_800)
    .description('A chat session without activity (and no unfinished answer) for this long ends: `is_active` false, `chat.session.ended {reason: idle_timeout}`; a new message reopens it; `0`: never'),
  maxConcurrentTurnsPerTenant: Joi.number().integer().min(1).default(20)
    .description('Chat turns of one tenant running at once, counted across all processes; past it a new question (or `ask_user` answer) gets 429 `TURN_LIMIT_EXCEEDED` with `Retry-After` and nothing is stored'),
  maxConcurrentStreamsPerTenant: Joi.number().integer().min(1).default(100)
    .description('Open chat SSE streams of one tenant, counted across processes; past it 429 `STREAM_LIMIT_EXCEEDED` with `Retry-After`'),
  llmModel: Joi.string().trim().allow('').default('gpt-4o-mini')
    .description('Default model of agents that do not name one'),
  llmBaseUrl: Joi.string().trim().allow('').default('')
    .description('OpenAI-compatible API base including `/v1`; unset, chat answers extractively from the tenant\'s documents').meta({ whenUnset: 'offline responder' }),
}).default({});

export const defaultOptions: ChatOptions = optionsSchema.validate({}).value;

/** Secrets, read from the environment by secretsFrom and nowhere else. */
export const secrets: readonly EnvironmentSecret[] = [
  { variable: 'LLM_API_KEY', description: 'Bearer key of that API (never logged)' },
];

export function secretsFrom(env: Record<string, string | undefined>): { llmApiKey: string | undefined } {
  return { llmApiKey: env.LLM_API_KEY || undefined };
}

/** Per-tenant limits. */
export interface ChatLimits {
  maxTurnsPerTenant: number;
  maxStreamsPerTenant: number;
}

export function chatLimitsOf(options: ChatOptions): ChatLimits {
  return { maxTurnsPerTenant: options.maxConcurrentTurnsPerTenant, maxStreamsPerTenant: options.maxConcurrentStreamsPerTenant };
}

export interface ModelSettings {
  /** Base URL of an OpenAI-compatible API; unset: the offline responder answers. */
  baseUrl: string | undefined;
  apiKey: string | undefined;
  model: string;
}

export function modelSettingsOf(options: ChatOptions, env: Record<string, string | undefined>): ModelSettings {
  const baseUrl = options.llmBaseUrl.trim() || undefined;
  return {
    baseUrl: baseUrl?.replace(/\/+$/, ''),
    apiKey: secretsFrom(env).llmApiKey,
    model: options.llmModel.trim() || 'gpt-4o-mini',
  };
}
