// CLI commands of the integrations plugin: import-openapi, specs, sync,
// functions list|call. The CLI acts as the operator on the database; it has
// no event backend, so the definition events of what it changes are enqueued
// in the same transaction and emitted by the running server's workers. It
// calls imported functions only (platform functions live in the server:
// POST /api/admin/functions/{name}/call), and it cannot see platform function
// names, so an import from the CLI does not check them for conflicts.
import { readFile } from 'node:fs/promises';
import type { CliCommand, CliOption } from '../../core/cli/commands.ts';
import { UsageError } from '../../core/cli/commands.ts';
import type { CliCore } from '../../core/cli/context.ts';
import { notFound } from '../../core/errors.ts';
import { checkArguments, createCaller } from './calling/caller.ts';
import { createTokenCache } from './calling/oauth2.ts';
import { createCatalogService } from './catalog-service.ts';
import type { IntegrationsContext } from './context.ts';
import { createEnvPolicy } from './env/policy.ts';
import { emitLater } from './events.ts';
import { createHttpClient } from './http-client.ts';
import { createImportService, type ImportInput } from './import-service.ts';
import { defaultOptions } from './options.ts';
import { importBody } from './schemas.ts';
import { functionsStore } from './store/functions.ts';
import { createSyncService } from './sync-service.ts';

const tenant = { type: 'string', description: 'tenant alias', required: true } as const;
const text = (description: string): CliOption => ({ type: 'string', description });

function services(core: CliCore) {
  const env = core.config.env;
  const http = createHttpClient({
    allowPrivateNetworks: env.INTEGRATIONS_ALLOW_PRIVATE_NETWORKS === 'true',
    timeoutMs: defaultOptions.callTimeoutMs,
    maxResponseBytes: defaultOptions.maxResponseBytes,
  });
  const envPolicy = createEnvPolicy(env);
  const context: IntegrationsContext = {
    withTenant: core.withTenant,
    secrets: core.secrets,
    envPolicy,
    http,
    announce: emitLater(core.jobs),
    invalidate() {},
    platformNames: async () => new Set(),
    limits: {
      maxSpecBytes: defaultOptions.maxSpecBytes,
      maxOperations: defaultOptions.maxOperations,
      maxExternalDocuments: defaultOptions.maxExternalDocuments,
      resolveTimeoutMs: defaultOptions.specTimeoutMs,
    },
  };
  const caller = createCaller({ withTenant: core.withTenant, secrets: core.secrets, env: envPolicy, http, tokens: createTokenCache(http) });
  return { context, caller };
}

function jsonObject(value: unknown, flag: string): Record<string, unknown> {
  if (value === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(String(value));
  } catch {
    throw new UsageError(`--${flag} must be JSON, e.g. '{"id": 42}'`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new UsageError(`--${flag} must be a JSON object`);
  return parsed as Record<string, unknown>;
}

function positiveInt(value: unknown, flag: string): number | null {
  if (value === undefined) return null;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) throw new UsageError(`--${flag} must be a positive integer`);
  return parsed;
}

const IMPORT_FLAGS = [
  'prefix', 'auth-scheme', 'auth-header', 'auth-value', 'auth-query-param', 'auth-credential-source', 'auth-token-url', 'base-url',
  'include-tags', 'exclude-tags', 'include-paths', 'exclude-paths', 'include-operations', 'exclude-operations', 'function-names',
];

/** The CLI flags as the REST body, checked by the same joi schema. */
async function importInput(source: string, options: Record<string, unknown>): Promise<ImportInput> {
  const body: Record<string, unknown> = { name: options.name, dry_run: !options['no-dry-run'] };
  if (/^https?:\/\//i.test(source)) body.source = source;
  else {
    try {
      body.file = await readFile(source);
    } catch (err) {
      throw new UsageError(`cannot read ${source}: ${(err as Error).message}`);
    }
  }
  for (const flag of IMPORT_FLAGS) if (options[flag] !== undefined) body[flag.replaceAll('-', '_')] = options[flag];
  const { value, error } = importBody(defaultOptions.maxSpecBytes).validate(body, { abortEarly: false });
  if (error) throw new UsageError(error.details.map((d) => d.message.replaceAll('_', '-')).join('; '));
  return value as ImportInput;
}

export const cli: CliCommand[] = [
  {
    name: 'import-openapi',
    description: 'Preview (default) or, with --no-dry-run, import an OpenAPI description from a URL or a local file',
    positionals: ['source'],
    options: {
      tenant,
      name: { type: 'string', description: 'name of the imported spec', required: true },
      'no-dry-run': { type: 'boolean', description: 'perform the import (default: preview only)' },
      prefix: text('prefix of every function name (default: the name)'),
      'auth-scheme': text('apiKey, bearer, basic, oauth2 or none (default: from the document)'),
      'auth-header': text('header carrying the credential (default Authorization)'),
      'auth-value': text('default credential; ${VAR} placeholders are resolved from the server environment at call time'),
      'auth-query-param': text('apiKey sent in this query parameter'),
      'auth-credential-source': text('key of the default credential in the tenant secret store'),
      'auth-token-url': text('oauth2 token URL when the document names none'),
      'base-url': text('override the document\'s server URL'),
      'include-tags': text('comma-separated tags to keep'),
      'exclude-tags': text('comma-separated tags to leave out'),
      'include-paths': text('comma-separated path globs to keep (* one segment, ** any)'),
      'exclude-paths': text('comma-separated path globs to leave out'),
      'include-operations': text('comma-separated operationIds or "METHOD /path" to keep'),
      'exclude-operations': text('comma-separated operations to leave out'),
      'function-names': text('name overrides: operation=name,...'),
    },
    run: async (core, { positionals, options }) => {
      const input = await importInput(positionals[0], options);
      return (await createImportService(services(core).context).importSpec(options.tenant as string, input)).result;
    },
  },
  {
    name: 'specs',
    description: 'List a tenant\'s imported specs (content hash, status, function count)',
    options: { tenant },
    run: (core, { options }) => createCatalogService(services(core).context).listSpecs(options.tenant as string, 0, 500),
  },
  {
    name: 'sync',
    description: 'Re-read an imported spec; skipped when its content hash is unchanged unless --force',
    positionals: ['spec-id'],
    options: { tenant, force: { type: 'boolean', description: 'sync even when the content hash is unchanged' } },
    run: (core, { positionals, options }) =>
      createSyncService(services(core).context).sync(options.tenant as string, positionals[0], Boolean(options.force)),
  },
  {
    name: 'functions list',
    description: 'List a tenant\'s imported functions',
    options: { tenant, source: text('only functions of this spec'), status: text('active or removed') },
    run: (core, { options }) => {
      const status = options.status as string | undefined;
      if (status !== undefined && status !== 'active' && status !== 'removed') throw new UsageError('--status must be active or removed');
      return createCatalogService(services(core).context)
        .listFunctions(options.tenant as string, { source: options.source as string | undefined, status: status as never }, 0, 500);
    },
  },
  {
    name: 'functions call',
    description: 'Call an imported function (as a client or a chat session with --client-id / --session-id)',
    positionals: ['name'],
    options: {
      tenant,
      arguments: text('arguments as a JSON object'),
      'client-id': text('act for this client (its credentials apply)'),
      'session-id': text('act for this chat session (its credentials apply)'),
    },
    run: async (core, { positionals, options }) => {
      const tenantId = options.tenant as string;
      const name = positionals[0];
      const args = jsonObject(options.arguments, 'arguments');
      const row = await core.withTenant(tenantId, (trx) => functionsStore.get(trx, name));
      if (!row) throw notFound(`Imported function not found: ${name}`, 'FUNCTION_NOT_FOUND');
      if (row.status === 'active') checkArguments(name, row.json_schema, args);
      const scope = { tenantId, clientId: positiveInt(options['client-id'], 'client-id'), sessionId: (options['session-id'] as string | undefined) ?? null };
      return services(core).caller(name, { id: row.id, version: row.version }, args, scope, () => {});
    },
  },
];
