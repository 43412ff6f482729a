// Arguments to an HTTP request, by each parameter's location:
// path arguments fill the `{param}` slots of the URL template, query
// arguments go into the query string (arrays and objects serialized as the
// operation declared), header arguments into headers, body arguments into the
// JSON (or form) body. With a free-form body, every argument that is not a
// path, query or header parameter is a body field.
import { domainError } from 'agent-platform/sdk';
import type { FunctionParameters, QueryStyle, RequestShape } from '../openapi/model.ts';

export interface RequestTemplate {
  method: string;
  path: string;
  base_url: string | null;
  parameters: FunctionParameters;
  request: RequestShape;
}

export interface BuiltRequest {
  method: string;
  url: URL;
  headers: Headers;
  body?: string | Uint8Array;
}

const scalar = (value: unknown): string => (typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value));

function appendQuery(params: URLSearchParams, name: string, value: unknown, style: QueryStyle | undefined): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) {
    const separator = { form: undefined, form_csv: ',', csv: ',', ssv: ' ', pipes: '|', deepObject: undefined }[style ?? 'form'];
    if (separator === undefined) for (const item of value) params.append(name, scalar(item));
    else params.append(name, value.map(scalar).join(separator));
    return;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (style === 'deepObject') for (const [key, item] of entries) params.append(`${name}[${key}]`, scalar(item));
    else if (style === 'form' || style === undefined) for (const [key, item] of entries) params.append(key, scalar(item));
    else params.append(name, entries.flatMap(([key, item]) => [key, scalar(item)]).join(','));
    return;
  }
  params.append(name, String(value));
}

function pathValue(value: unknown): string {
  return encodeURIComponent(Array.isArray(value) ? value.map(scalar).join(',') : scalar(value));
}

async function encodeBody(shape: RequestShape, fields: Record<string, unknown>, whole: unknown): Promise<{ body: string | Uint8Array; contentType: string }> {
  if (shape.body === 'form') {
    const form = new URLSearchParams();
    for (const [name, value] of Object.entries(fields)) appendQuery(form, name, value, 'form');
    return { body: form.toString(), contentType: 'application/x-www-form-urlencoded' };
  }
  if (shape.body === 'multipart') {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) {
      for (const item of Array.isArray(value) ? value : [value]) if (item !== undefined && item !== null) form.append(name, scalar(item));
    }
    const encoded = new Response(form);
    return { body: new Uint8Array(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type')! };
  }
  const contentType = shape.content_type && /json/i.test(shape.content_type) ? shape.content_type : 'application/json';
  return { body: JSON.stringify(shape.whole_body ? whole : fields), contentType };
}

export async function buildRequest(template: RequestTemplate, args: Record<string, unknown>): Promise<BuiltRequest> {
  if (!template.base_url) {
    throw domainError(422, 'The spec has no server URL to call: re-import it with base_url', 'BASE_URL_MISSING');
  }
  const { parameters, request } = template;
  const query = new URLSearchParams();
  const headers = new Headers();
  const bodyFields: Record<string, unknown> = {};
  let wholeBody: unknown;
  let hasBody = false;
  let path = template.path;
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined) continue;
    const parameter = parameters[name];
    const wire = parameter?.original_name ?? name;
    if (!parameter) {
      // Only a free-form body accepts undeclared arguments (validation refused the others).
      if (request.free_form) {
        bodyFields[name] = value;
        hasBody = true;
      }
      continue;
    }
    switch (parameter.location) {
      case 'path':
        path = path.split(`{${wire}}`).join(pathValue(value));
        break;
      case 'query':
        appendQuery(query, wire, value, parameter.style);
        break;
      case 'header':
        if (value !== null) headers.set(wire, Array.isArray(value) ? value.map(scalar).join(',') : scalar(value));
        break;
      case 'body':
        if (request.whole_body === name) wholeBody = value;
        else bodyFields[wire] = value;
        hasBody = true;
        break;
    }
  }
  const missing = /\{([^}]+)\}/.exec(path);
  if (missing) throw domainError(400, `argument "${missing[1]}" is required (path parameter)`, 'INVALID_ARGUMENTS');
  const url = new URL(`${template.base_url}${path.startsWith('/') ? '' : '/'}${path}`);
  for (const [name, value] of query) url.searchParams.append(name, value);
  headers.set('accept', 'application/json, */*;q=0.5');
  const built: BuiltRequest = { method: template.method, url, headers };
  if (hasBody && request.body) {
    const { body, contentType } = await encodeBody(request, bodyFields, wholeBody);
    built.body = body;
    headers.set('content-type', contentType);
  }
  return built;
}
