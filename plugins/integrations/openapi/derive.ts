// One operation becomes one function definition (its name is given by
// naming.ts): the `parameters` map with a location per argument (`path`,
// `query`, `header`, `body`), the JSON Schema agents
// see, how the body is encoded, and the operation's security needs.
//
// The two body rules: an object body without `properties` that
// allows additional ones takes every argument that is not a path, query or
// header parameter (`free_form`); a body whose $ref cannot be resolved yields
// no body parameters, with a warning.
import type {
  DerivedFunction, FunctionParameter, FunctionParameters, JsonSchema, QueryStyle, RequestShape, SecurityUse, SpecFormat, Warning,
} from './model.ts';
import type { RawOperation, RawParameter } from './operations.ts';
import { objectShape, toJsonSchema } from './schema.ts';
import { snakeCase } from './naming.ts';

const MAX_DESCRIPTION = 1024;

function queryStyle(p: RawParameter, format: SpecFormat): QueryStyle | undefined {
  if (format === 'swagger-2.0') {
    const collection = p.collectionFormat ?? 'csv';
    return collection === 'multi' ? 'form' : collection === 'ssv' ? 'ssv' : collection === 'pipes' ? 'pipes' : 'csv';
  }
  if (p.style === 'deepObject') return 'deepObject';
  if (p.style === 'spaceDelimited') return 'ssv';
  if (p.style === 'pipeDelimited') return 'pipes';
  return p.explode === false ? 'form_csv' : 'form';
}

function descriptionOf(op: RawOperation): string {
  let text = op.summary || op.description.split(/\n\s*\n/)[0].trim() || `${op.method} ${op.path}`;
  if (op.deprecated) text = `[deprecated] ${text}`;
  return text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION - 1)}…` : text;
}

function securityUse(op: RawOperation): SecurityUse | null {
  if (!op.security) return null;
  if (op.security.length === 0) return { none: true, scopes: [] };
  const scopes = [...new Set(op.security.flatMap((requirement) => Object.values(requirement ?? {}).flat().map(String)))];
  return { none: false, scopes };
}

export function deriveFunction(op: RawOperation, format: SpecFormat): Omit<DerivedFunction, 'name'> {
  const warnings: Warning[] = [];
  const warn = (message: string) => warnings.push({ operation: op.key, message });
  const convert = (schema: unknown) => toJsonSchema(schema, { nullableKeyword: format === 'openapi-3.0' });
  const parameters: FunctionParameters = {};
  const argumentName = (name: string, location: string) => {
    if (!(name in parameters)) return name;
    let candidate = `${location}_${name}`;
    for (let n = 2; candidate in parameters; n++) candidate = `${location}_${name}_${n}`;
    return candidate;
  };
  const add = (wanted: string, original: string, parameter: FunctionParameter) => {
    const name = argumentName(wanted, parameter.location);
    parameters[name] = name === original ? parameter : { ...parameter, original_name: original };
  };

  if (op.unreadable > 0) warn(`${op.unreadable} parameter(s) could not be read (unresolved $ref) and were left out`);
  for (const location of ['path', 'query', 'header'] as const) {
    for (const p of op.parameters.filter((q) => q.in === location)) {
      const schema = convert(p.schema);
      const parameter: FunctionParameter = { location, required: p.required, schema };
      if (p.description) parameter.description = p.description.slice(0, MAX_DESCRIPTION);
      if (location === 'query') {
        const style = queryStyle(p, format);
        if (style && style !== 'form') parameter.style = style;
      }
      const wanted = location === 'header' && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(p.name) ? snakeCase(p.name) || 'header' : p.name;
      add(wanted, p.name, parameter);
    }
  }
  for (const p of op.parameters.filter((q) => q.in === 'cookie')) warn(`cookie parameter "${p.name}" is not supported and was left out`);

  const request: RequestShape = { body: null, content_type: null, free_form: false, whole_body: null };
  if (op.unsupportedBody) warn(`request body media type ${op.unsupportedBody} is not supported: no body parameters`);
  const body = op.body;
  if (body) {
    const encoding = /^multipart\//i.test(body.mediaType) ? 'multipart' : /x-www-form-urlencoded/i.test(body.mediaType) ? 'form' : 'json';
    request.body = encoding;
    request.content_type = body.mediaType;
    if (body.fields) {
      for (const field of body.fields) {
        if (field.schema?.type === 'file') {
          warn(`file upload field "${field.name}" is not supported and was left out`);
          continue;
        }
        const parameter: FunctionParameter = { location: 'body', required: field.required, schema: convert(field.schema) };
        if (field.description) parameter.description = field.description.slice(0, MAX_DESCRIPTION);
        add(field.name, field.name, parameter);
      }
    } else if (body.schema === null) {
      warn('the request body schema ($ref) could not be resolved: the function has no body parameters');
    } else {
      const shape = objectShape(body.schema);
      if (shape && Object.keys(shape.properties).length > 0) {
        for (const [name, property] of Object.entries(shape.properties)) {
          const schema = convert(property);
          const parameter: FunctionParameter = { location: 'body', required: shape.required.includes(name), schema };
          if (typeof schema.description === 'string') parameter.description = schema.description;
          add(name, name, parameter);
        }
      } else if (shape?.additional || (shape === undefined && Object.keys(body.schema).length === 0)) {
        request.free_form = true;
      } else if (shape === undefined) {
        const name = argumentName('body', 'request');
        request.whole_body = name;
        parameters[name] = { location: 'body', required: body.required, schema: convert(body.schema), description: 'The whole request body' };
      }
    }
  }

  return {
    operation_key: op.key,
    operation_id: op.operationId ?? null,
    method: op.method,
    path: op.path,
    summary: op.summary,
    description: descriptionOf(op),
    parameters,
    json_schema: argumentsSchema(parameters, request.free_form),
    request,
    security: securityUse(op),
    warnings,
  };
}

/** The JSON Schema of a function's arguments object, as agents and the registry see it. */
export function argumentsSchema(parameters: FunctionParameters, freeForm: boolean): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [name, parameter] of Object.entries(parameters)) {
    const schema = { ...parameter.schema };
    if (parameter.description) schema.description = parameter.description;
    properties[name] = schema;
    if (parameter.required) required.push(name);
  }
  return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: freeForm };
}
