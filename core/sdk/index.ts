// agent-platform/sdk: the public plugin contract. Plugins inside this repo and
// partner plugins outside it import the platform only from here (plugins/README.md).
// This module only re-exports (`export … from`): everything it offers is
// defined in a core module, which never imports this entry back. The test
// harness is a separate entry, agent-platform/sdk/testing (./testing.ts).
//
// A plugin's tables are added to `Database` by declaration merging:
//   declare module 'agent-platform/sdk' { interface Database { my_table: MyTable } }
// and its test-replaceable services to `ServiceOverrides`, and the value type
// of the extension points it owns to `ExtensionPoints`, the same way.

// The plugin contract and the core's services.
export { coreOf } from '../plugin-contract.ts';
export type { Clock, CoreServices, OutboundHttp, ServiceOverrides } from '../plugin-contract.ts';
export {
  definePlugin, type EnvironmentSecret, type PlatformPlugin, type PlatformPluginModule, type PluginApiOf, type PluginDependencies,
} from '../plugin-module.ts';
export type { ExtensionPointDeclarations, ExtensionPointInfo, ExtensionPointName, ExtensionPoints, ExtensionsApi } from '../extensions.ts';
export { PluginContractError } from '../contract-error.ts';
export type { PlatformConfig } from '../config.ts';
export { ConfigError } from '../config.ts';

// Data: the tables' types, tenant transactions.
export type { CoreTables, Database } from '../db/types.ts';
export type { TenantSession, TenantTransaction, WithTenant, WithTenantSession } from '../db/tenant.ts';
export type { TenantDirectory } from '../tenants.ts';
export { afterCommit, isValidTenantAlias } from '../db/tenant.ts';
export { compiledStatement, type StatementRunner } from '../db/compiled.ts';
export { onSecondConnection, SecondConnectionError } from '../db/connection-guard.ts';
export { isUuid, isUuidText, UUID_PATTERN } from '../uuid.ts';
export type { EnterTenantSql, TenantSqlMode, TenantSqlOptions, TenantSqlService } from '../tenant-sql/service.ts';
export { isSqlConcurrencyLimit, isSqlTimeout, SQL_CONCURRENCY_LIMIT, SQL_TIMEOUT, TENANT_SQL_NOTES } from '../tenant-sql/errors.ts';

// Errors: Boom errors with a stable `code`.
export { badRequest, conflict, domainError, forbidden, notFound, tooManyRequests, unauthorized } from '../errors.ts';

// Routes: who calls, for which tenant, and what a route requires.
export type { Principal, Memberships, ServicePrincipal } from '../auth/principal.ts';
export { capabilitiesOf, principalTenants, rolesIn } from '../auth/principal.ts';
export { principalOf, type ApiKeyResolver } from '../auth/index.ts';
export { holdsRole, tenantOf, type RouteAccess } from '../auth/tenant-context.ts';
export { actorOf, describeActor, parseActor, systemPrincipal, type Actor } from '../auth/acting-for.ts';
export { addReadinessCheck, addReadinessDetails } from '../http/ops.ts';
export { metricsRegistryOf } from '../http/metrics.ts';

// Tracing (OpenTelemetry): a span around a plugin's own work, a no-op while tracing is off.
export { inSpan, SpanKind, tracing, type SpanSpec } from '../telemetry/tracing.ts';
export { activeTraceparent, traceparentContext, withTraceContext } from '../telemetry/jobs.ts';

// Jobs (tasks and schedules), events, platform functions.
export type {
  EnqueueLongOptions, EnqueueOptions, FastTaskHandler, JobContext, JobSpec, JobsApi, LongTaskHandler, LongTaskOptions, ScheduleOptions,
} from '../jobs/types.ts';
export type { JobsDescription } from '../jobs/types.ts';
export type {
  EmitOptions, EventBackend, EventInput, EventsApi, EventTypeCatalog, EventTypeDefinition, RegisteredEventType,
} from '../events.ts';
// Event type patterns, event filters and {{path}} templates (the workflow engine's).
export * from '../event-matching.ts';
export type {
  CallObserver, CompletedCall, FunctionCallContext, FunctionDefinition, FunctionDescriptor, FunctionFilter, FunctionProvider, FunctionStatus, JsonSchema,
} from '../functions/registry.ts';
export { FunctionRegistry } from '../functions/registry.ts';
export { authorizeCall, callRefusal, DEFAULT_FUNCTION_ROLES } from '../functions/access.ts';

// GraphQL: the facade (graphql.extend), the access guards (a field takes the
// principals and roles of the REST route owning its data), connections and
// the BAD_USER_INPUT error of a malformed argument (badInput).
export * from '../graphql/facade.ts';
export { filter, Repeater, SlidingBuffer } from '../graphql/live.ts';
export * from '../graphql/access.ts';
export * from '../graphql/connection.ts';
export { schemaStyleViolations, type SchemaStyleOptions } from '../graphql/schema-style.ts';
export * from '../graphql/errors.ts';

// Schedules: cron in IANA zones (DST-correct walks), the missed-run policy,
// core.schedules' types and the service of one schedule per subject.
export {
  canonicalTimeZone, cronProblem, dueOccurrence, MISSED_RUN_POLICIES, nextOccurrence, nextOccurrences, walkTo,
  type DueOccurrence, type MissedRunPolicy, type Walk,
} from '../cron.ts';
export type {
  FireResult, MissedOccurrences, Occurrence, Schedule, ScheduleInput, ScheduleKind, SchedulesApi,
} from '../schedules/types.ts';
export { createOwnedSchedules, type OwnedScheduleInput, type OwnedSchedules, type OwnedSchedulesOptions } from '../schedules/owned.ts';
export { ownedScheduleSchemas, type OwnedScheduleSchemaOptions } from '../schedules/schemas.ts';

// Secrets, outbound HTTP, tenant-written patterns and schemas.
export type { SecretBox } from '../secrets.ts';
export { hashSecret, randomToken, secretMatches } from '../secrets.ts';
export { BlockedAddressError } from '../http/guarded-fetch.ts';
export { isPrivateAddress } from '../http/addresses.ts';
export { readCapped } from '../http/read-capped.ts';
export { isLoopbackHost, MAX_ORIGINS, parseOrigin, parseOrigins, requestOrigin, type OriginProblem } from '../http/origins.ts';
export { boundedJson, MAX_JSON_DEPTH } from '../http/bounded-json.ts';
export { clientAddress, perMinute, RateLimiter, type RateLimitOptions } from '../http/rate-limit.ts';
export { assetResponse, contentTypeOf, IMMUTABLE_CACHE, REVALIDATE_CACHE, staticAssets, type StaticAsset } from '../http/static-assets.ts';
export type { RateLimitsApi, SharedRateLimiter } from '../http/shared-rate-limit.ts';
export type { InvalidationApi, InvalidationHandlers } from '../db/invalidation.ts';
export {
  signStandardWebhook, STANDARD_WEBHOOK_TOLERANCE_SECONDS, standardSecretOf, standardWebhookHeaders, verifyStandardWebhook, webhookKey,
  webhookTimestampFreshness, type Freshness, type StandardWebhookMessage,
} from '../http/standard-webhooks.ts';
export { CREDENTIAL_HEADERS, followRedirect, isRedirect, MAX_REDIRECTS } from '../http/redirect.ts';
export { cachedSchemaCount, compileCodeSchema, createAjv } from '../json-schema.ts';
export { compileLinear, linearPatternProblem, type LinearRegExp } from '../linear-regexp.ts';

// The libraries a plugin's code speaks, re-exported so that a partner plugin
// depends on the platform only: hapi's route types, joi (the platform's own
// instance: routes are validated with it), kysely's table types and `sql`.
export type { Lifecycle, Request, ResponseToolkit, Server, ServerRoute } from '@hapi/hapi';
export { default as Joi } from 'joi';
export { sql } from 'kysely';
export type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

// CLI commands.
export { defineCli, UsageError } from '../cli/commands.ts';
export { serverFetch, serverOptions, serverToken, serverUrl } from '../cli/server.ts';
export type {
  CliArgs, CliCommand, CliCommandInfo, CliInput, CliOption, CliOptions, CliProgress, CliValues, CommandDeclarer, PluginCli,
} from '../cli/commands.ts';
