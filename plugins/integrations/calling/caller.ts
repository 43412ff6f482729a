// Calls an imported function: one query reads the function as it is now and
// the credentials that may apply; then the request is built from the
// arguments, the credential is placed by the spec's scheme, and the request
// goes out through the guarded HTTP client. A function removed at re-sync
// fails with 410 (workflows that still name it fail clearly).
import type { ValidateFunction } from 'ajv';
import { badRequest, createAjv, domainError, type FunctionCallContext, notFound, type SecretBox, type WithTenant } from 'agent-platform/sdk';
import type { EnvPolicy } from '../env/policy.ts';
import type { HttpClient } from './http-client.ts';
import { loadCallRow, type CallRow } from '../store/call.ts';
import type { CallRowCache } from './call-row-cache.ts';
import { placeAuth } from './apply-auth.ts';
import { buildRequest } from './build-request.ts';
import { resolveCredential, type ResolvedCredential } from './credentials.ts';
import type { TokenCache } from './oauth2.ts';
import { hintFor, toResult, type CallResult } from './response.ts';

export interface CallerDeps {
  withTenant: WithTenant;
  secrets: SecretBox;
  /** The environment variables ${VAR} placeholders may read (read at call time). */
  env: EnvPolicy;
  http: HttpClient;
  tokens: TokenCache;
  /** Serves warm calls without a database round trip (absent: every call reads). */
  rows?: CallRowCache;
}

export interface CallScope {
  tenantId: string;
  sessionId: string | null;
  clientId: number | null;
}

/** The definition the registry validated the arguments against. */
export interface Snapshot {
  id: number;
  version: number;
}

export type FreshDefinition = Pick<CallRow, 'id' | 'version' | 'status' | 'description' | 'json_schema' | 'spec_name'>;

// For the rare call whose definition changed after the registry validated it, and for the CLI.
// Tenant-written schemas: the platform's factory, whose patterns run on RE2 (linear time).
const ajv = createAjv({ useDefaults: true });

/** Validates arguments against a function's schema outside the registry (a definition changed mid-call; the CLI). */
export function checkArguments(name: string, schema: Record<string, unknown>, args: Record<string, unknown>, why = ''): void {
  const compiled = { type: 'object', ...schema };
  const validate: ValidateFunction = ajv.compile(compiled);
  try {
    if (!validate(args)) {
      const errors = (validate.errors ?? []).map((e) => `${e.instancePath || '(arguments)'} ${e.message}`).join('; ');
      throw badRequest(`Invalid arguments for ${name}${why}: ${errors}`, 'INVALID_ARGUMENTS');
    }
  } finally {
    ajv.removeSchema(compiled);
  }
}

export function scopeOf(context: FunctionCallContext): CallScope {
  return {
    tenantId: context.tenantId,
    sessionId: context.executionContext?.type === 'chat_session' ? context.executionContext.id : null,
    clientId: context.clientId ?? null,
  };
}

export function createCaller(deps: CallerDeps) {
  async function authorize(row: CallRow, credential: ResolvedCredential | undefined) {
    if (row.auth.scheme !== 'oauth2' || !credential || row.security?.none) return { placement: placeAuth(row.auth, credential), tokenKey: undefined };
    const scopes = row.security?.scopes.length ? row.security.scopes : row.auth.scopes;
    const { token, key } = await deps.tokens.token({ tokenUrl: row.auth.token_url!, credential: credential.value, scopes, specName: row.spec_name });
    return { placement: placeAuth(row.auth, credential, token), tokenKey: key };
  }

  return async function call(
    name: string, snapshot: Snapshot, args: Record<string, unknown>, scope: CallScope, onFresh: (fresh: FreshDefinition) => void,
  ): Promise<CallResult> {
    const read = () => deps.withTenant(scope.tenantId, (trx) => loadCallRow(trx, name, scope.sessionId, scope.clientId));
    const row = deps.rows ? await deps.rows.load(scope.tenantId, name, scope.sessionId, scope.clientId, read) : await read();
    if (!row) throw notFound(`Function not found: ${name}`, 'FUNCTION_NOT_FOUND');
    if (row.id !== snapshot.id || row.version !== snapshot.version) {
      onFresh(row);
      if (row.status === 'active') checkArguments(name, row.json_schema, args, ' (its definition changed during the call)');
    }
    if (row.status === 'removed') {
      const when = row.removed_at ? ` on ${new Date(row.removed_at).toISOString()}` : '';
      throw domainError(410, `Function ${name} was removed: its operation ${row.method} ${row.path} is no longer in spec "${row.spec_name}" (re-synced${when})`, 'FUNCTION_REMOVED');
    }
    // Nothing is opened (nor refused for its origin) where nothing would be sent.
    const sendsNone = row.security?.none || row.auth.scheme === 'none';
    const credential = sendsNone ? undefined : resolveCredential(row, scope, deps.secrets, deps.env);
    const request = await buildRequest({ ...row, base_url: row.base_url }, args);
    const { placement, tokenKey } = await authorize(row, credential);
    for (const [header, value] of placement.headers) request.headers.set(header, value);
    for (const [param, value] of placement.query) request.url.searchParams.set(param, value);
    const response = await deps.http({
      method: request.method,
      url: request.url,
      headers: request.headers,
      body: request.body,
      credentialHeaders: placement.headers.map(([header]) => header),
      credentialQuery: placement.query.map(([param]) => param),
    });
    if (response.status === 401 && tokenKey) deps.tokens.invalidate(tokenKey);
    return toResult(response, credential, hintFor(response.status, row.spec_name, credential, scope.clientId));
  };
}

export type Caller = ReturnType<typeof createCaller>;
