// CLI commands of the integrations plugin: import-openapi, specs, sync,
// functions list|call. The CLI acts as the operator on the database, on the
// plugin's services (services.ts: there, what it changes announces its
// definition events through the server's workers, and platform function
// names are not checked). It calls imported functions only (platform
// functions live in the server: POST /api/admin/functions/{name}/call).
import { readFile } from 'node:fs/promises';
import type { CoreServices } from 'agent-platform/sdk';
import { type CliOption, defineCli, UsageError } from 'agent-platform/sdk/cli';
import type { IntegrationsOptions } from './options.ts';
import type { ImportInput } from './services/import.ts';

const tenant = { type: 'string', description: 'tenant alias', required: true } as const;
const text = (description: string) => ({ type: 'string', description }) as const satisfies CliOption;

function jsonObject(value: string | undefined, flag: string): Record<string, unknown> {
  if (value === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new UsageError(`--${flag} must be JSON, e.g. '{"id": 42}'`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new UsageError(`--${flag} must be a JSON object`);
  return parsed as Record<string, unknown>;
}

function positiveInt(value: string | undefined, flag: string): number | null {
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
async function importInput(source: string, options: Record<string, string | boolean | undefined>, maxSpecBytes: number): Promise<ImportInput> {
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
  const { importBody } = await import('./schemas.ts');
  const { value, error } = importBody(maxSpecBytes).validate(body, { abortEarly: false });
  if (error) throw new UsageError(error.details.map((d) => d.message.replaceAll('_', '-')).join('; '));
  return value as ImportInput;
}

/** The plugin's services, imported when a command runs (the declarations load nothing else). */
const services = async (core: CoreServices, options: IntegrationsOptions) => (await import('./services.ts')).createServices(core, options);

export const cli = defineCli(services, (command) => [
  command({
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
    run: async ({ imports, options: pluginOptions }, { positionals, options, progress }) => {
      const input = await importInput(positionals[0], options, pluginOptions.maxSpecBytes);
      return (await imports.importSpec(options.tenant, input, progress)).result;
    },
  }),
  command({
    name: 'specs',
    description: 'List a tenant\'s imported specs (content hash, status, function count)',
    options: { tenant },
    run: ({ catalog }, { options }) => catalog.listSpecs(options.tenant, 0, 500),
  }),
  command({
    name: 'sync',
    description: 'Re-read an imported spec; skipped when its content hash is unchanged unless --force',
    positionals: ['spec-id'],
    options: { tenant, force: { type: 'boolean', description: 'sync even when the content hash is unchanged' } },
    run: ({ sync }, { positionals, options, progress }) => sync.sync(options.tenant, positionals[0], Boolean(options.force), progress),
  }),
  command({
    name: 'functions list',
    description: 'List a tenant\'s imported functions',
    options: { tenant, source: text('only functions of this spec'), status: text('active or removed') },
    run: ({ catalog }, { options }) => {
      const status = options.status;
      if (status !== undefined && status !== 'active' && status !== 'removed') throw new UsageError('--status must be active or removed');
      return catalog.listFunctions(options.tenant, { source: options.source, status }, 0, 500);
    },
  }),
  command({
    name: 'functions call',
    description: 'Call an imported function (as a client or a chat session with --client-id / --session-id)',
    positionals: ['name'],
    options: {
      tenant,
      arguments: text('arguments as a JSON object'),
      'client-id': text('act for this client (its credentials apply)'),
      'session-id': text('act for this chat session (its credentials apply)'),
    },
    run: async ({ caller }, { positionals, options }, core) => {
      const tenantId = options.tenant;
      const name = positionals[0];
      const args = jsonObject(options.arguments, 'arguments');
      const [{ notFound }, { checkArguments }, { functionsStore }] = await Promise.all([
        import('agent-platform/sdk'), import('./calling/caller.ts'), import('./store/functions.ts'),
      ]);
      const row = await core.withTenant(tenantId, (trx) => functionsStore.get(trx, name));
      if (!row) throw notFound(`Imported function not found: ${name}`, 'FUNCTION_NOT_FOUND');
      if (row.status === 'active') checkArguments(name, row.json_schema, args);
      const scope = { tenantId, clientId: positiveInt(options['client-id'], 'client-id'), sessionId: options['session-id'] ?? null };
      return caller(name, { id: row.id, version: row.version }, args, scope, () => {});
    },
  }),
]);
