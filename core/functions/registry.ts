// The registry of functions that agents (as tools) and workflow ACTION steps
// call by name. Platform plugins register theirs at boot; providers (imported
// OpenAPI functions, per tenant) are asked at call time.
import { createHash } from 'node:crypto';
import type { Ajv, ValidateFunction, ErrorObject } from 'ajv';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { currentPrincipal, describeActor, type Actor } from '../auth/acting-for.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/types.ts';
import type { WithTenant } from '../db/tenant.ts';
import { badRequest, forbidden, notFound } from '../errors.ts';
import { compileCodeSchema, createAjv } from '../json-schema.ts';
import { authorizeCall } from './access.ts';

export type JsonSchema = Record<string, unknown>;

export interface FunctionCallContext {
  tenantId: string;
  /**
   * The person the call is made for, with their rights (core/functions/access.ts):
   * the request's principal, `functions.principalFor(tenantId, actor)` for
   * stored work, `systemPrincipal(name)` for platform work that acts for nobody.
   */
  principal: Principal;
  /** Functions a tenant admin granted to whoever uses the calling surface (a chat agent's `functions`). */
  granted?: readonly string[];
  withTenant: WithTenant;
  logger: Logger;
  /**
   * Who is calling: `chat_session` (id = the session id), `workflow_execution`
   * (the execution id) or `function_call` (a direct call through the API).
   */
  executionContext?: {
    type: string;
    id: string;
    /**
     * A workflow step's id and its visit number in the execution (step_seq): the
     * same on every attempt of that visit, different when a loop comes back to
     * the step. emit_event derives its event id from them, so a retry emits no
     * duplicate.
     */
    step?: { id: string; seq: number };
    /** A chat turn's tool call: the turn and the model's id of the call (e.g. to resume the turn later). */
    turn?: { id: string; tool_call_id: string };
  };
  /** The client the caller acts for (a chat session's client): client-level credentials. */
  clientId?: number;
}

/** What an observer sees of a call that succeeded (e.g. the chunks a context was shown). */
export interface CompletedCall {
  name: string;
  args: Record<string, unknown>;
  result: unknown;
  context: FunctionCallContext;
}

export type CallObserver = (call: CompletedCall) => Promise<void>;

export interface FunctionDefinition {
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: JsonSchema;
  handler: (args: Record<string, any>, context: FunctionCallContext) => Promise<unknown>;
  /**
   * The roles of which the caller must hold one in the tenant; `[]`: any
   * member of the tenant. Default `['admin']` (core/functions/access.ts).
   */
  roles?: readonly string[];
  /**
   * For provided functions: a key that changes whenever `parameters` changes
   * (e.g. the definition's id and version). The registry reuses the validator
   * compiled for a key instead of hashing the schema on every call.
   */
  schemaKey?: string;
}

/**
 * `active`: callable. `removed`: an imported function whose operation left its
 * spec; still known (a call answers 410) but offered to no agent. Platform
 * functions are always active.
 */
export type FunctionStatus = 'active' | 'removed';

export interface FunctionDescriptor {
  name: string;
  description: string;
  parameters: JsonSchema;
  /** `platform`, or the provider's name (e.g. the imported spec). */
  source: string;
  status: FunctionStatus;
}

export interface FunctionFilter {
  /** `platform`, or a provider's source (an imported spec's name). */
  source?: string;
  /** Default `active`: what agents and workflows may call. */
  status?: FunctionStatus;
}

export interface FunctionProvider {
  name: string;
  /** The provider's functions with this status, of this source when one is given (never `platform`). */
  list(tenantId: string, filter: { source?: string; status: FunctionStatus }): Promise<FunctionDescriptor[]>;
  get(tenantId: string, name: string): Promise<(FunctionDefinition & { source: string; status?: FunctionStatus }) | undefined>;
}

const NAME = /^[a-z][a-z0-9_]{0,127}$/;
/** The `source` of the functions plugins register. */
export const PLATFORM = 'platform';
/** Compiled validators of provided functions kept at once (least recently used go first). */
const MAX_PROVIDED_VALIDATORS = 5000;

// Tenant schemas (imported functions): patterns run on RE2 (core/json-schema.ts), the only Ajv factory.
// Made on the first function registered or provided (a CLI command may register none).
let shared: Ajv | undefined;
const ajv = (): Ajv => (shared ??= createAjv({ useDefaults: true }));

function describeError(error: ErrorObject): string {
  const where = error.instancePath ? error.instancePath.slice(1).replaceAll('/', '.') : '';
  if (error.keyword === 'required') {
    const missing = `${where ? `${where}.` : ''}${(error.params as { missingProperty: string }).missingProperty}`;
    return `argument "${missing}" is required`;
  }
  if (error.keyword === 'additionalProperties') {
    return `argument "${(error.params as { additionalProperty: string }).additionalProperty}" is not allowed`;
  }
  return `argument "${where || '(arguments)'}" ${error.message}`;
}

export class FunctionRegistry {
  private readonly functions = new Map<string, FunctionDefinition & { validate: ValidateFunction }>();
  private readonly providers: FunctionProvider[] = [];
  private readonly observers: CallObserver[] = [];
  /**
   * Validators of provided functions by schema key: compiling a JSON Schema
   * takes milliseconds, and ajv would also keep every schema object it ever
   * compiled. Bounded; an evicted schema is removed from ajv too.
   */
  private readonly providedValidators = new Map<string, { validate: ValidateFunction; schema: JsonSchema }>();
  private readonly db: Kysely<Database> | undefined;

  /** `db`: the directory `principalFor` reads people's current roles from. */
  constructor(options: { db?: Kysely<Database> } = {}) {
    this.db = options.db;
  }

  register(name: string, definition: FunctionDefinition): void {
    if (!NAME.test(name)) throw new Error(`function name "${name}" must be snake_case`);
    if (this.functions.has(name)) throw new Error(`function "${name}" is already registered`);
    const validate = compileCodeSchema(ajv(), { type: 'object', ...definition.parameters });
    this.functions.set(name, { ...definition, validate });
  }

  addProvider(provider: FunctionProvider): void {
    this.providers.push(provider);
  }

  /**
   * Runs after every successful call, before its result is returned; an
   * observer that throws fails the call (what it records must not be lost,
   * e.g. the citations plugin's provenance of the chunks a context was shown).
   */
  observe(observer: CallObserver): void {
    this.observers.push(observer);
  }

  /** Functions by name; by default the active ones (platform and provided). */
  async list(tenantId: string, filter: FunctionFilter = {}): Promise<FunctionDescriptor[]> {
    const status = filter.status ?? 'active';
    const { source } = filter;
    const platform = (source === undefined || source === PLATFORM) && status === 'active'
      ? [...this.functions].map(([name, fn]): FunctionDescriptor => ({
        name, description: fn.description, parameters: fn.parameters, source: PLATFORM, status: 'active',
      }))
      : [];
    const provided = source === PLATFORM
      ? []
      : (await Promise.all(this.providers.map((p) => p.list(tenantId, { source, status })))).flat();
    return [...platform, ...provided].sort((a, b) => a.name.localeCompare(b.name));
  }

  async describe(tenantId: string, name: string): Promise<FunctionDescriptor> {
    const found = await this.resolve(tenantId, name);
    return { name, description: found.description, parameters: found.parameters, source: found.source, status: found.status ?? 'active' };
  }

  /**
   * The principal of a call made for a stored actor (a source's owner, a
   * trigger's creator): that person's roles in the tenant now. 403
   * ACTOR_NOT_MEMBER when the person is no longer a member of the tenant.
   */
  async principalFor(tenantId: string, actor: Actor): Promise<Principal> {
    if (!this.db) throw new Error('the function registry has no user directory');
    const principal = await currentPrincipal(this.db, tenantId, actor);
    if (!principal) throw forbidden(`The ${describeActor(actor)} this work acts for is no longer a member of tenant ${tenantId}`, 'ACTOR_NOT_MEMBER');
    return principal;
  }

  /**
   * Checks that the context's principal may call the function (403
   * FUNCTION_FORBIDDEN, nothing called), validates the arguments against its
   * JSON Schema, then calls it.
   */
  async call(name: string, args: Record<string, unknown>, context: FunctionCallContext): Promise<unknown> {
    const fn = await this.resolve(context.tenantId, name);
    authorizeCall(context.principal, context.tenantId, name, fn.roles, context.granted);
    const copy = structuredClone(args ?? {});
    if (!fn.validate(copy)) {
      throw badRequest(`Invalid arguments for ${name}: ${(fn.validate.errors ?? []).map(describeError).join('; ')}`, 'INVALID_ARGUMENTS');
    }
    const result = await fn.handler(copy, context);
    for (const observer of this.observers) await observer({ name, args: copy, result, context });
    return result;
  }

  private async resolve(tenantId: string, name: string) {
    const own = this.functions.get(name);
    if (own) return { ...own, source: PLATFORM, status: 'active' as FunctionStatus };
    for (const provider of this.providers) {
      const found = await provider.get(tenantId, name);
      if (found) return { ...found, validate: this.providedValidator(provider.name, found) };
    }
    throw notFound(`Function not found: ${name}`, 'FUNCTION_NOT_FOUND');
  }

  private providedValidator(provider: string, found: FunctionDefinition): ValidateFunction {
    const key = found.schemaKey !== undefined
      ? `${provider}\u0000${found.schemaKey}`
      : `#${createHash('sha256').update(JSON.stringify(found.parameters)).digest('base64')}`;
    const cached = this.providedValidators.get(key);
    if (cached) {
      // Map order is insertion order: re-inserting marks it most recently used.
      this.providedValidators.delete(key);
      this.providedValidators.set(key, cached);
      return cached.validate;
    }
    const schema = { type: 'object', ...found.parameters };
    const validate = ajv().compile(schema);
    this.providedValidators.set(key, { validate, schema });
    if (this.providedValidators.size > MAX_PROVIDED_VALIDATORS) {
      const [oldestKey, oldest] = this.providedValidators.entries().next().value!;
      this.providedValidators.delete(oldestKey);
      ajv().removeSchema(oldest.schema);
    }
    return validate;
  }
}
