// The OpenAPI 3.1.0 document of a hapi server: every route tagged 'api',
// tagged by the plugin that registered it (core for the core's own), with
// named schemas in components.
import type { RequestRoute } from '@hapi/hapi';
import { Components } from './components.ts';
import type { JsonSchema } from './json-schema.ts';
import { nameOperation, uniqueOperationId } from './names.ts';
import { openApiPath, operationOf } from './operation.ts';
import { CORE_TAG, orderedTags, type Tag } from './tags.ts';

export interface DocumentOptions {
  title: string;
  version: string;
  /** The README's plugin table (tags.ts): names, descriptions and order of the plugin tags. */
  pluginTags: Tag[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];

export const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['statusCode', 'error', 'message'],
  properties: {
    statusCode: { type: 'integer', description: 'The HTTP status' },
    error: { type: 'string', description: 'The status text' },
    message: { type: 'string' },
    code: { type: 'string', description: 'A stable code of the failure (e.g. VALIDATION_FAILED, TENANT_REQUIRED)' },
  },
};

export const SECURITY_SCHEMES: JsonSchema = {
  bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A user, service or embed token, or the super-admin token' },
  apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'A client\'s API key' },
};

/** The routes the document lists: those tagged 'api', with a method OpenAPI knows. */
export function documentedRoutes(routes: RequestRoute[]): RequestRoute[] {
  return routes.filter((route) => route.settings.tags?.includes('api') && METHODS.includes(route.method.toLowerCase()));
}

export function tagOf(route: RequestRoute): string {
  return route.realm.plugin ?? CORE_TAG.name;
}

export function buildDocument(routes: RequestRoute[], options: DocumentOptions): JsonSchema {
  const components = new Components();
  components.schemas.Error = ERROR_SCHEMA;
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const taken = new Set<string>();
  const used = new Set<string>();
  // Sorted, so that names and ids do not depend on the order plugins registered their routes in.
  const sorted = documentedRoutes(routes).sort((a, b) => a.path.localeCompare(b.path) || METHODS.indexOf(a.method) - METHODS.indexOf(b.method));
  for (const route of sorted) {
    const method = route.method.toLowerCase();
    const naming = nameOperation(method, route.path);
    const operationId = uniqueOperationId(naming, route.path, taken);
    const tag = tagOf(route);
    used.add(tag);
    const path = openApiPath(route.path);
    paths[path] ??= {};
    paths[path][method] = operationOf(route, naming, operationId, tag, components);
  }
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    info: { title: options.title, version: options.version },
    tags: orderedTags(options.pluginTags, used),
    paths,
    components: {
      schemas: components.sorted(),
      responses: { Error: { description: 'An error ({statusCode, error, message, code})', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } } },
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}
