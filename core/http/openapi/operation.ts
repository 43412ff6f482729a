// One route of the hapi route table as an OpenAPI 3.1 operation: parameters
// (path, query, headers, X-Tenant-ID where the route takes a tenant), the
// request body in each content type the route accepts, responses (JSON,
// SSE, the error shape), security from its auth strategies and mode.
import type { Schema } from 'joi';
import type { RequestRoute } from '@hapi/hapi';
import type { Components } from './components.ts';
import { isRequired, keysOf, nameOf, toJsonSchema } from './joi-schema.ts';
import type { JsonSchema } from './json-schema.ts';
import { requestName, responseName, type OperationNaming } from './names.ts';
import { joiSchemaOf } from '../fast-validation.ts';

/** Route options the document reads under `plugins.openapi`. */
export interface RouteDocOptions {
  deprecated?: boolean;
  /** The body schema to document when the route validates its body itself (`parse: false`). */
  validate?: { payload?: Schema };
  /** Response content types, when not JSON: `text/event-stream` for an SSE route. */
  produces?: string[];
}

declare module '@hapi/hapi' {
  interface PluginSpecificConfiguration {
    openapi?: RouteDocOptions;
  }
}

/** Security scheme name of each hapi auth strategy. */
const SCHEMES: Record<string, string> = { bearer: 'bearer', 'api-key': 'apiKey' };
const SSE = /\bSSE\b|text\/event-stream/;
const SKIPPED_HEADERS = new Set(['authorization', 'content-type', 'accept', 'x-api-key', 'x-tenant-id']);
const FILE_TYPES = /^(multipart\/form-data|application\/octet-stream)$/;

export function docOptionsOf(route: RequestRoute): RouteDocOptions {
  return route.settings.plugins?.openapi ?? {};
}

function textOf(notes: string | string[] | undefined): string | undefined {
  if (notes === undefined) return undefined;
  return Array.isArray(notes) ? notes.join('\n\n') : notes;
}

/** The OpenAPI path of a hapi path: `{name*}`, `{name?}` and `{name*2}` become `{name}`. */
export function openApiPath(path: string): string {
  return path.replace(/\{(\w+)[*?][0-9]*\}/g, '{$1}');
}

function parametersOf(schema: Schema | undefined, where: 'path' | 'query' | 'header', components: Components): JsonSchema[] {
  if (!schema) return [];
  return keysOf(schema)
    .filter(({ key, schema: value }) => (where !== 'header' || !SKIPPED_HEADERS.has(key.toLowerCase())) && (value as any)._flags.presence !== 'forbidden')
    .map(({ key, schema: value }) => {
      const { description, ...rest } = toJsonSchema(value, { names: components });
      const parameter: JsonSchema = { name: key, in: where, required: where === 'path' || isRequired(value), schema: rest };
      if (description !== undefined) parameter.description = description;
      return parameter;
    });
}

function tenantParameter(route: RequestRoute): JsonSchema | undefined {
  if (!route.settings.auth) return undefined;
  const access = (route.settings.plugins as { platform?: { tenant?: string; explicitTenant?: boolean } } | undefined)?.platform ?? {};
  if ((access.tenant ?? 'required') === 'none' || /\{tenant_id\}/.test(route.path)) return undefined;
  const named = access.explicitTenant
    ? 'The tenant (alias) the call acts in; the route needs it named (here or as a `tenant_id` parameter)'
    : 'The tenant (alias) the call acts in; may be left out when the principal belongs to one tenant only';
  return { name: 'X-Tenant-ID', in: 'header', required: false, description: named, schema: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]*$' } };
}

function securityOf(route: RequestRoute): JsonSchema[] {
  const auth = route.settings.auth;
  if (!auth) return [];
  const schemes = (auth.strategies ?? []).map((strategy) => SCHEMES[strategy] ?? strategy);
  const security: JsonSchema[] = schemes.map((scheme) => ({ [scheme]: [] }));
  if (auth.mode === 'optional' || auth.mode === 'try') security.push({});
  return security;
}

function requestBodyOf(route: RequestRoute, operationId: string, components: Components): JsonSchema | undefined {
  const method = route.method.toUpperCase();
  if (method === 'GET' || method === 'HEAD' || (method === 'DELETE' && !route.settings.validate?.payload)) return undefined;
  const payload = route.settings.payload;
  const schema = docOptionsOf(route).validate?.payload ?? joiSchemaOf(route.settings.validate?.payload);
  const types = payload?.allow ? [payload.allow].flat() : ['application/json'];
  if (!schema && payload?.parse !== false && !types.some((type) => FILE_TYPES.test(type))) return undefined;
  const content: Record<string, JsonSchema> = {};
  for (const type of types) {
    const multipart = type === 'multipart/form-data';
    let converted: JsonSchema;
    if (schema) {
      converted = multipart ? toJsonSchema(schema, { multipart: true }) : named(schema, requestName(operationId), components);
    } else if (type === 'application/octet-stream' || multipart) {
      converted = { type: 'string', contentMediaType: 'application/octet-stream' };
    } else {
      converted = /json/.test(type) ? {} : { type: 'string' };
    }
    content[type] = { schema: converted };
  }
  return { required: Boolean(schema) || payload?.parse === false, content };
}

/** A top-level request or response schema: a `$ref` under its own name or the one derived from the operation. */
function named(schema: Schema, derived: string, components: Components): JsonSchema {
  if (nameOf(schema)) return toJsonSchema(schema, { names: components });
  const type = (schema as unknown as { type: string }).type;
  if (!['object', 'array', 'alternatives'].includes(type)) return toJsonSchema(schema, { names: components });
  return components.named(schema, derived, () => toJsonSchema(schema, { names: components }));
}

function responsesOf(route: RequestRoute, naming: OperationNaming, operationId: string, components: Components): Record<string, JsonSchema> {
  const responses: Record<string, JsonSchema> = {};
  const settings = route.settings.response as { schema?: unknown; status?: Record<string, unknown> } | undefined;
  const produces = docOptionsOf(route).produces;
  const schema = joiSchemaOf(settings?.schema);
  const streams = produces?.includes('text/event-stream')
    || (!schema && SSE.test(`${route.settings.description ?? ''}\n${textOf(route.settings.notes) ?? ''}`));
  if (streams) {
    responses['200'] = { description: 'A stream of server-sent events', content: { 'text/event-stream': { schema: { type: 'string' } } } };
  } else if (schema) {
    responses['200'] = { description: 'Success', content: { 'application/json': { schema: named(schema, responseName(naming, operationId, 200), components) } } };
  }
  for (const [code, value] of Object.entries(settings?.status ?? {})) {
    const status = Number(code);
    const body = joiSchemaOf(value);
    responses[code] = body && status !== 204
      ? { description: status < 300 ? 'Success' : 'Error', content: { 'application/json': { schema: named(body, responseName(naming, operationId, status), components) } } }
      : { description: status === 204 ? 'No content' : 'Success' };
  }
  if (!Object.keys(responses).some((code) => code.startsWith('2'))) responses['200'] = { description: 'Success' };
  responses.default = { $ref: '#/components/responses/Error' };
  return responses;
}

export function operationOf(route: RequestRoute, naming: OperationNaming, operationId: string, tag: string, components: Components): JsonSchema {
  components.context = operationId[0].toUpperCase() + operationId.slice(1);
  const validate = route.settings.validate ?? {};
  const pathParams = parametersOf(joiSchemaOf(validate.params), 'path', components);
  const declared = new Set(pathParams.map((parameter) => parameter.name));
  for (const match of openApiPath(route.path).matchAll(/\{(\w+)\}/g)) {
    if (!declared.has(match[1])) pathParams.push({ name: match[1], in: 'path', required: true, schema: { type: 'string' } });
  }
  const tenant = tenantParameter(route);
  const parameters = [
    ...pathParams,
    ...parametersOf(joiSchemaOf(validate.query), 'query', components),
    ...(tenant ? [tenant] : []),
    ...parametersOf(joiSchemaOf(validate.headers), 'header', components),
  ];
  const operation: JsonSchema = { operationId, tags: [tag] };
  if (route.settings.description) operation.summary = route.settings.description;
  const notes = textOf(route.settings.notes);
  if (notes) operation.description = notes;
  if (parameters.length > 0) operation.parameters = parameters;
  const body = requestBodyOf(route, operationId, components);
  if (body) operation.requestBody = body;
  operation.responses = responsesOf(route, naming, operationId, components);
  operation.security = securityOf(route);
  if (docOptionsOf(route).deprecated || route.settings.tags?.includes('deprecated')) operation.deprecated = true;
  return operation;
}
