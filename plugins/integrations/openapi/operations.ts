// Lists the operations of a dereferenced document in one shape for Swagger
// 2.0 and OpenAPI 3.x: method, path, operationId, summary, tags, parameters
// (path-level merged with the operation's own) and the request body.
import type { SpecFormat } from './model.ts';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

export interface RawParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie' | 'formData';
  required: boolean;
  description?: string;
  /** The schema (OpenAPI 3) or the parameter object itself (Swagger 2.0 keeps type/format/items on it). */
  schema: Record<string, any> | null;
  style?: string;
  explode?: boolean;
  collectionFormat?: string;
}

export interface RawBody {
  required: boolean;
  mediaType: string;
  /** Null when the body's $ref could not be resolved. */
  schema: Record<string, any> | null;
  /** Swagger 2.0 formData parameters. */
  fields?: RawParameter[];
}

export interface RawOperation {
  key: string;
  method: string;
  path: string;
  operationId?: string;
  summary: string;
  description: string;
  tags: string[];
  deprecated: boolean;
  parameters: RawParameter[];
  body?: RawBody;
  /** A request body was declared but offers no supported media type. */
  unsupportedBody?: string;
  /** The operation's own security requirements; undefined means the document's. */
  security?: Record<string, string[]>[];
  /** Parameters that were null ($ref not resolved) or unusable. */
  unreadable: number;
}

const isObject = (value: unknown): value is Record<string, any> => value !== null && typeof value === 'object' && !Array.isArray(value);

function readParameter(raw: unknown, format: SpecFormat): RawParameter | undefined {
  if (!isObject(raw) || typeof raw.name !== 'string' || typeof raw.in !== 'string') return undefined;
  const location = raw.in as RawParameter['in'] | 'body';
  if (location === 'body') return undefined; // handled as the body
  const schema = format === 'swagger-2.0' ? raw : isObject(raw.schema) ? raw.schema : raw.content ? firstContentSchema(raw.content) : null;
  return {
    name: raw.name,
    in: location,
    required: location === 'path' ? true : raw.required === true,
    description: typeof raw.description === 'string' ? raw.description : undefined,
    schema: schema ?? null,
    style: typeof raw.style === 'string' ? raw.style : undefined,
    explode: typeof raw.explode === 'boolean' ? raw.explode : undefined,
    collectionFormat: typeof raw.collectionFormat === 'string' ? raw.collectionFormat : undefined,
  };
}

function firstContentSchema(content: unknown): Record<string, any> | null {
  if (!isObject(content)) return null;
  const first = Object.values(content)[0];
  return isObject(first) && isObject(first.schema) ? first.schema : null;
}

/** Path-level parameters apply unless the operation redefines the same name and location. */
function mergeParameters(pathLevel: unknown, own: unknown): unknown[] {
  const list = (value: unknown) => (Array.isArray(value) ? value : []);
  const key = (p: unknown) => (isObject(p) ? `${p.in}:${p.name}` : undefined);
  const ownKeys = new Set(list(own).map(key));
  return [...list(pathLevel).filter((p) => !ownKeys.has(key(p))), ...list(own)];
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json(?:;|$)/i;

function chooseMediaType(types: string[]): string | undefined {
  return types.find((t) => JSON_TYPE.test(t))
    ?? types.find((t) => /^application\/x-www-form-urlencoded/i.test(t))
    ?? types.find((t) => /^multipart\/form-data/i.test(t))
    ?? types.find((t) => t === '*/*');
}

function openapiBody(operation: Record<string, any>, op: RawOperation): void {
  const requestBody = operation.requestBody;
  if (requestBody === undefined) return;
  if (!isObject(requestBody)) {
    // The requestBody's own $ref could not be resolved.
    op.body = { required: false, mediaType: 'application/json', schema: null };
    return;
  }
  const content = isObject(requestBody.content) ? requestBody.content : {};
  const mediaType = chooseMediaType(Object.keys(content));
  if (!mediaType) {
    op.unsupportedBody = Object.keys(content).join(', ') || '(no media type)';
    return;
  }
  const media = content[mediaType];
  const schema = isObject(media) && 'schema' in media ? (isObject(media.schema) ? media.schema : null) : {};
  op.body = { required: requestBody.required === true, mediaType: mediaType === '*/*' ? 'application/json' : mediaType, schema };
}

function swaggerBody(parameters: unknown[], consumes: string[], op: RawOperation): void {
  const body = parameters.find((p) => isObject(p) && p.in === 'body') as Record<string, any> | undefined;
  if (body) {
    op.body = { required: body.required === true, mediaType: chooseMediaType(consumes) ?? 'application/json', schema: isObject(body.schema) ? body.schema : null };
    return;
  }
  const fields = op.parameters.filter((p) => p.in === 'formData');
  if (fields.length === 0) return;
  op.parameters = op.parameters.filter((p) => p.in !== 'formData');
  const multipart = fields.some((f) => f.schema?.type === 'file') || consumes.some((t) => /^multipart\/form-data/i.test(t));
  op.body = {
    required: fields.some((f) => f.required),
    mediaType: multipart ? 'multipart/form-data' : 'application/x-www-form-urlencoded',
    schema: { type: 'object' },
    fields,
  };
}

export function listOperations(api: Record<string, any>, format: SpecFormat): RawOperation[] {
  const operations: RawOperation[] = [];
  const paths = isObject(api.paths) ? api.paths : {};
  const globalConsumes = Array.isArray(api.consumes) ? api.consumes.map(String) : [];
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      const merged = mergeParameters(item.parameters, operation.parameters);
      const parameters = merged.map((p) => readParameter(p, format)).filter((p): p is RawParameter => p !== undefined);
      const op: RawOperation = {
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        operationId: typeof operation.operationId === 'string' && operation.operationId.trim() ? operation.operationId.trim() : undefined,
        summary: typeof operation.summary === 'string' ? operation.summary.trim() : '',
        description: typeof operation.description === 'string' ? operation.description.trim() : '',
        tags: Array.isArray(operation.tags) ? operation.tags.map(String) : [],
        deprecated: operation.deprecated === true,
        parameters,
        security: Array.isArray(operation.security) ? operation.security : undefined,
        unreadable: merged.filter((p) => !isObject(p)).length,
      };
      if (format === 'swagger-2.0') {
        const consumes = Array.isArray(operation.consumes) ? operation.consumes.map(String) : globalConsumes;
        swaggerBody(merged, consumes, op);
      } else {
        openapiBody(operation, op);
      }
      operations.push(op);
    }
  }
  return operations;
}
