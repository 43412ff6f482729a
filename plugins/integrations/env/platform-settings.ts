// The platform's own settings: environment variables that a `${VAR}`
// placeholder in a tenant's auth value never resolves, whatever the
// operator allows (INTEGRATIONS_ENV_ALLOWLIST). This file is the one place
// the deny list is kept; a test asserts that every variable of the root
// README's configuration table is denied here, so the two cannot drift.
//
// Names are compared upper-cased: on a case-insensitive environment
// (Windows) `${admin_token}` would read ADMIN_TOKEN.

/** Every variable the README's configuration table names (a pattern row as its prefix below). */
export const PLATFORM_SETTINGS: readonly string[] = [
  'DATABASE_URL', 'PLATFORM_DATA_DIR', 'PLATFORM_MASTER_KEY', 'PLATFORM_MANIFEST', 'PORT', 'HOST',
  'ADMIN_TOKEN', 'METRICS_TOKEN',
  'SERVICE_JWT_SECRET', 'SERVICE_JWT_ISSUERS', 'SERVICE_JWT_AUDIENCE', 'SERVICE_JWT_MAX_TTL',
  'OIDC_ISSUER_URL', 'OIDC_AUDIENCE', 'PLATFORM_TOKEN_ISSUER', 'PLATFORM_TOKEN_TTL',
  'LOG_LEVEL', 'JOBS_POLL_INTERVAL_MS', 'JOBS_CONCURRENCY', 'JOBS_WORKER_STALE_SECONDS', 'SHUTDOWN_TIMEOUT_MS',
  'HTTP_HEADERS_TIMEOUT_SECONDS', 'HTTP_REQUEST_TIMEOUT_SECONDS', 'HTTP_KEEP_ALIVE_TIMEOUT_SECONDS', 'HTTP_MAX_CONNECTIONS', 'HTTP_RESPONSE_VALIDATION_PERCENT',
  'TENANT_SQL_INTERACTIVE_TIMEOUT_SECONDS', 'TENANT_SQL_MAX_CONCURRENT_PER_TENANT',
  'WORKFLOWS_ALLOW_PRIVATE_NETWORKS', 'WORKFLOWS_ACTION_ATTEMPTS', 'EVENTS_RETENTION_DAYS', 'EVENTS_MAX_CHAIN_DEPTH', 'WEBHOOK_SECRET',
  'INTEGRATIONS_ALLOW_PRIVATE_NETWORKS', 'INTEGRATIONS_CALL_TIMEOUT_MS', 'INTEGRATIONS_MAX_RESPONSE_BYTES', 'INTEGRATIONS_ENV_ALLOWLIST',
  'INGESTION_EMBEDDING_MODEL_PATH', 'INGESTION_EMBEDDING_BASE_URL', 'INGESTION_EMBEDDING_API_KEY', 'MODELS_HUB_URL',
  'UNSTRUCTURED_API_URL', 'UNSTRUCTURED_API_KEY', 'CITATIONS_INLINE_VERIFY_LIMIT', 'CITATIONS_PROVENANCE_RETENTION_DAYS',
  'LLM_BASE_URL', 'LLM_API_KEY', 'LLM_MODEL',
  'CHAT_ASK_USER_TIMEOUT_SECONDS', 'CHAT_MAX_CONCURRENT_TURNS_PER_TENANT', 'CHAT_MAX_CONCURRENT_STREAMS_PER_TENANT',
  'SOURCE_CREDENTIAL_MODE', 'PATTERN_ADMIN_SECRET', 'PATTERN_WEBHOOK_SECRET',
  'PUBLIC_BASE_URL', 'SMTP_URL', 'MAIL_FROM',
];

/**
 * Whole namespaces of the platform: the core's and every plugin's settings
 * prefix (a setting added later is denied before anyone lists it), and
 * libpq's PG* variables (the database connection).
 */
export const PLATFORM_PREFIXES: readonly string[] = [
  'PLATFORM_', 'DATABASE_', 'ADMIN_', 'METRICS_', 'SERVICE_JWT_', 'OIDC_', 'JOBS_', 'SHUTDOWN_', 'LOG_',
  'WORKFLOWS_', 'EVENTS_', 'WEBHOOK_', 'WEBHOOKS_', 'INTEGRATIONS_', 'INGESTION_', 'UNSTRUCTURED_', 'CITATIONS_',
  'LLM_', 'CHAT_', 'EMBED_', 'OCCURRENCES_', 'FORMS_', 'PIPELINES_', 'APPROVALS_', 'GRAPHQL_', 'PG',
  'APPLY_', 'IDENTITY_', 'ONTOLOGY_', 'TEMPORAL_', 'DAGSTER_', 'TENANT_SQL_', 'MAIL_', 'SMTP_', 'CONSOLE_',
  // OpenTelemetry's standard variables (its exporter headers can hold a collector's credentials).
  'OTEL_',
];

/**
 * Names that hold secrets by convention: never resolvable outside the
 * integrations namespace. `INTEGRATION_*` is where an operator puts values meant
 * for tenants' imported APIs (the default allowlist), so there a name such as
 * INTEGRATION_GITHUB_TOKEN is the point, not an accident.
 */
export const SECRET_SUFFIXES: readonly string[] = ['_SECRET', '_KEY', '_TOKEN', '_PASSWORD'];
const INTEGRATIONS_NAMESPACE = 'INTEGRATION_';

const exact = new Set(PLATFORM_SETTINGS);

/** Whether a variable is one of the platform's own settings (or a secret by its name). */
export function isPlatformSetting(name: string): boolean {
  const upper = name.toUpperCase();
  return exact.has(upper)
    || PLATFORM_PREFIXES.some((prefix) => upper.startsWith(prefix))
    || (!upper.startsWith(INTEGRATIONS_NAMESPACE) && SECRET_SUFFIXES.some((suffix) => upper.endsWith(suffix)));
}
