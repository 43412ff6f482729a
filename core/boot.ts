// Boots the platform: config, manifest, the core's services (database,
// migrations, queues: core/services.ts, shared with the CLI), the hapi server
// with the core's cross-cutting parts, then the feature plugins in dependency
// order. With an OTLP endpoint set, the OpenTelemetry SDK is started first
// (loaded only then) and shut down, its spans flushed, at stop.
import path from 'node:path';
import Hapi, { type Server } from '@hapi/hapi';
import Joi from 'joi';
import type { DestinationStream } from 'pino';
import { loadConfig, type PlatformConfig } from './config.ts';
import { createLogger } from './logging.ts';
import { onDroppedPattern } from './json-schema.ts';
import { readManifest, type Manifest } from './manifest.ts';
import { migrationSourcesOf, resolvePlugins } from './plugin-loader.ts';
import { createCoreServices } from './services.ts';
import { registerPlugins } from './plugin-registration.ts';
import { registerFunctionRoutes } from './functions/routes.ts';
import { registerAuth } from './auth/index.ts';
import { registerTenantContext } from './auth/tenant-context.ts';
import { resolveAdminTokenHash } from './auth/admin-token.ts';
import { registerErrorRendering, validationFailAction } from './errors.ts';
import { registerOps } from './http/ops.ts';
import { registerQueueRoutes } from './http/queues.ts';
import { registerTextGuard } from './http/text-guard.ts';
import { registerMetrics } from './http/metrics.ts';
import { registerRequestLogging } from './http/request-log.ts';
import { createListener, handleDroppedConnections } from './http/listener.ts';
import { registerOpenApi } from './http/openapi.ts';
import { compileParameterValidation } from './http/fast-validation.ts';
import { readTelemetrySettings } from './telemetry/settings.ts';
import type { Telemetry } from './telemetry/sdk.ts';
import type { CoreServices, ServiceOverrides } from './plugin-contract.ts';

export interface PlatformOptions {
  config?: PlatformConfig;
  /** Where log lines go (tests read them); stdout by default. */
  logStream?: DestinationStream;
  /** Overrides the manifest's server port and host. */
  port?: number;
  host?: string;
  /** Receives a generated admin token; prints it by default. */
  announceAdminToken?: (token: string) => void;
  /** A manifest given as an object instead of the file config.manifestPath names (tests, embeddings). */
  manifest?: Manifest;
  /** Services to replace (the SDK harness: clock, model client, fetch). */
  services?: ServiceOverrides;
}

export interface Platform {
  server: Server;
  core: CoreServices;
  start(): Promise<void>;
  stop(): Promise<void>;
}

const VERSION = '0.1.0';

export async function createPlatform(options: PlatformOptions = {}): Promise<Platform> {
  const config = options.config ?? loadConfig();
  const telemetrySettings = readTelemetrySettings(config.env);
  const logger = createLogger(config.logLevel, options.logStream, { traceIds: telemetrySettings.settings !== undefined });
  for (const warning of telemetrySettings.warnings) logger.warn(warning);
  onDroppedPattern((pattern, reason) => logger.warn({ pattern: pattern.slice(0, 200) }, `JSON Schema pattern dropped (accepts any string): ${reason}`));
  // Manifest errors are found before anything is started.
  const manifest = options.manifest ?? (await readManifest(config.manifestPath, config.env));
  const plugins = await resolvePlugins(manifest, config.rootDir);

  let telemetry: Telemetry | undefined;
  if (telemetrySettings.settings) {
    const { startTelemetry } = await import('./telemetry/sdk.ts');
    telemetry = await startTelemetry(telemetrySettings.settings, VERSION);
  }
  const handle = await createCoreServices(config, { mode: 'server', plugins, logger, overrides: options.services })
    .catch(async (err) => { await telemetry?.shutdown(); throw err; });
  const { core, jobs, database, masterKey } = handle;
  const cleanups: (() => Promise<void>)[] = [() => handle.close()];
  if (telemetry) cleanups.push(telemetry.shutdown);
  try {
    await jobs.prepare();
    cleanups.unshift(() => jobs.stop());
    const adminTokenHash = await resolveAdminTokenHash(
      database.db,
      config.adminToken,
      options.announceAdminToken ?? ((token) => console.log(`Generated super-admin token (shown once, store it now): ${token}`)),
    );

    const listener = createListener({
      headersTimeoutMs: config.httpHeadersTimeoutMs, requestTimeoutMs: config.httpRequestTimeoutMs,
      keepAliveTimeoutMs: config.httpKeepAliveTimeoutMs, maxConnections: config.httpMaxConnections,
    });
    const server = Hapi.server({
      listener,
      port: options.port ?? manifest.server.port,
      host: options.host ?? manifest.server.host,
      router: { stripTrailingSlash: true },
      routes: {
        validate: { failAction: validationFailAction, options: { abortEarly: false } },
        // A diagnostic: a response that does not match its schema is logged, never changed or refused.
        // hapi reads a sample of 0 as "every response": none is a sample below any draw (1–100).
        response: { failAction: 'log', sample: config.httpResponseValidationPercent || Number.MIN_VALUE },
        // JSON unless a route says otherwise (uploads, OAuth forms): anything else is a 415.
        payload: { maxBytes: 1024 * 1024, allow: ['application/json'] },
      },
    });
    handleDroppedConnections(listener, logger);
    server.validator(Joi);
    if (telemetry) {
      const { registerHttpTracing } = await import('./telemetry/http.ts');
      registerHttpTracing(server, telemetry);
    }
    registerRequestLogging(server, logger);
    registerErrorRendering(server);
    registerTextGuard(server);
    const authenticator = registerAuth(server, { tokens: core.auth.tokens, adminTokenHash, resolveApiKey: handle.apiKeyResolver });
    registerTenantContext(server, (id) => core.tenants.exists(id));
    registerOpenApi(server, { version: VERSION, readmePath: path.join(config.rootDir, 'README.md') });
    registerOps(server, {
      pool: database.pool, version: VERSION, plugins: plugins.map((plugin) => plugin.module.plugin.name),
      migrations: migrationSourcesOf(plugins), masterKeyPresent: () => masterKey.length === 32,
    });
    registerMetrics(server, () => jobs.counts(), config.metricsToken);
    registerQueueRoutes(server, () => jobs.counts());
    registerFunctionRoutes(server, core.functions, core.withTenant, logger);
    core.graphql.registerRoute(server, { authenticator, tenantExists: (id) => core.tenants.exists(id), logger });
    await server.register({
      plugin: {
        name: 'core', version: VERSION,
        register: (s) => {
          s.expose('services', core);
          s.expose('forPlugin', handle.forPlugin);
        },
      },
    });

    await registerPlugins(server, plugins, handle.extensions);
    compileParameterValidation(server);
    server.ext('onPreStart', () => jobs.initialize());

    let stopped = false;
    return {
      server,
      core,
      async start() {
        // Built before listening; a server only initialized (tests injecting requests) builds it at its first GraphQL request.
        await core.graphql.build();
        await server.start();
        await jobs.start();
      },
      async stop() {
        if (stopped) return;
        stopped = true;
        await server.stop({ timeout: config.shutdownTimeoutMs });
        for (const cleanup of cleanups) await cleanup();
      },
    };
  } catch (err) {
    for (const cleanup of cleanups) await cleanup().catch(() => {});
    throw err;
  }
}
