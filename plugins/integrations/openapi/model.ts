// The shapes this plugin stores and passes between its parts: an imported
// spec's settings and auth, and a function derived from one operation.
import type { FunctionRecord } from '../store/tables.ts';

export type JsonSchema = Record<string, unknown>;

export type SpecFormat = 'swagger-2.0' | 'openapi-3.0' | 'openapi-3.1';

export const AUTH_SCHEMES = ['apiKey', 'bearer', 'basic', 'oauth2', 'none'] as const;
export type AuthScheme = (typeof AUTH_SCHEMES)[number];

/** How a spec's functions authenticate. Never holds the credential value itself. */
export interface AuthConfig {
  scheme: AuthScheme;
  /** Header that carries the credential (apiKey, bearer, basic, oauth2's token). */
  header: string | null;
  /** apiKey sent in the query string under this name instead of a header. */
  query_param: string | null;
  /** Key of a value in the tenant's secret store used as the default credential. */
  credential_source: string | null;
  /** oauth2: the client-credentials token endpoint (from the spec's securitySchemes). */
  token_url: string | null;
  /** oauth2: scopes requested when an operation names none. */
  scopes: string[];
  /** HMAC of the default value, so a re-import can tell whether it changed. */
  value_fingerprint: string | null;
  /** True when the scheme was taken from the spec rather than the import settings. */
  inferred: boolean;
}

export type ParameterLocation = 'path' | 'query' | 'header' | 'body';

export interface FunctionParameter {
  location: ParameterLocation;
  required: boolean;
  /** JSON Schema of the argument (the same schema agents see). */
  schema: JsonSchema;
  description?: string;
  /** The name the API uses, when the argument is named differently. */
  original_name?: string;
  /** Query serialization of arrays and objects. */
  style?: QueryStyle;
}

export type QueryStyle = 'form' | 'form_csv' | 'csv' | 'ssv' | 'pipes' | 'deepObject';

export type FunctionParameters = Record<string, FunctionParameter>;

export interface RequestShape {
  /** How body arguments are encoded; null when the operation takes no body. */
  body: 'json' | 'form' | 'multipart' | null;
  content_type: string | null;
  /** Body rule 1 (openapi/derive.ts): every argument that is not path/query/header goes into the body. */
  free_form: boolean;
  /** The argument that is the whole body (an array or scalar body). */
  whole_body: string | null;
}

/** An operation's own security: `none` (security: []) or the scopes it asks for. Null: the spec's default. */
export interface SecurityUse {
  none: boolean;
  scopes: string[];
}

export interface Warning {
  /** "GET /pets/{id}", when the warning is about one operation. */
  operation?: string;
  message: string;
}

export interface OperationFilter {
  tags?: string[];
  /** Globs over the path template: `*` within a segment, `**` across segments. */
  paths?: string[];
  operations?: string[];
}

export interface SpecSettings {
  include?: OperationFilter;
  exclude?: OperationFilter;
  /** Operation (operationId or "METHOD /path") to function name, used as given (no prefix). */
  function_names?: Record<string, string>;
  /** Overrides the server URL of the document. */
  base_url?: string | null;
  /** The auth settings as given, so a re-sync completes them from the new document the same way. */
  auth?: { scheme?: AuthScheme; header?: string; query_param?: string; token_url?: string };
}

/** A function as derived from one operation (before it is stored): the columns an import writes. */
export type DerivedFunction = Pick<
  FunctionRecord,
  'name' | 'operation_key' | 'operation_id' | 'method' | 'path' | 'summary' | 'description' | 'parameters' | 'json_schema' | 'request' | 'security' | 'warnings'
>;
