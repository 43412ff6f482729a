// The import settings of a request (JSON, multipart form fields or CLI
// flags) in the form the plugin stores and uses: lists may come as arrays or
// comma-separated text, function name overrides as an object or as
// `operation=name,…`.
import { badRequest } from 'agent-platform/sdk';
import type { AuthScheme, OperationFilter, SpecSettings } from './model.ts';
import { FUNCTION_NAME, normalizePrefix, snakeCase } from './naming.ts';

export interface ImportSettingsInput {
  name: string;
  prefix?: string;
  auth_scheme?: AuthScheme;
  auth_header?: string;
  auth_value?: string;
  auth_query_param?: string;
  auth_credential_source?: string;
  auth_token_url?: string;
  base_url?: string;
  include_tags?: string[] | string;
  exclude_tags?: string[] | string;
  include_paths?: string[] | string;
  exclude_paths?: string[] | string;
  include_operations?: string[] | string;
  exclude_operations?: string[] | string;
  function_names?: Record<string, string> | string;
}

export interface ImportSettings {
  name: string;
  prefix: string;
  settings: SpecSettings;
  authValue: string | undefined;
  credentialSource: string | undefined;
}

function list(value: string[] | string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const items = (Array.isArray(value) ? value : value.split(',')).map((item) => item.trim()).filter(Boolean);
  return items.length ? items : undefined;
}

function filter(tags?: string[] | string, paths?: string[] | string, operations?: string[] | string): OperationFilter | undefined {
  const result: OperationFilter = {};
  const t = list(tags);
  const p = list(paths);
  const o = list(operations);
  if (t) result.tags = t;
  if (p) result.paths = p;
  if (o) result.operations = o;
  return Object.keys(result).length ? result : undefined;
}

function functionNames(value: Record<string, string> | string | undefined): Record<string, string> | undefined {
  if (value === undefined) return undefined;
  let map: Record<string, string> = {};
  if (typeof value === 'string') {
    for (const pair of value.split(',').map((p) => p.trim()).filter(Boolean)) {
      const at = pair.lastIndexOf('=');
      if (at <= 0) throw badRequest(`function_names: "${pair}" is not operation=name`, 'VALIDATION_FAILED');
      map[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
    }
  } else {
    map = { ...value };
  }
  const seen = new Set<string>();
  for (const [operation, name] of Object.entries(map)) {
    if (!FUNCTION_NAME.test(name)) {
      throw badRequest(`function_names: "${name}" (for ${operation}) must be snake_case, start with a letter, at most 64 characters`, 'VALIDATION_FAILED');
    }
    if (seen.has(name)) throw badRequest(`function_names: "${name}" is given to more than one operation`, 'VALIDATION_FAILED');
    seen.add(name);
  }
  return Object.keys(map).length ? map : undefined;
}

export function importSettings(input: ImportSettingsInput): ImportSettings {
  if (input.auth_value !== undefined && input.auth_credential_source !== undefined) {
    throw badRequest('Give auth_value or auth_credential_source, not both', 'VALIDATION_FAILED');
  }
  const prefix = input.prefix === undefined ? normalizePrefix(snakeCase(input.name)) : normalizePrefix(input.prefix);
  const settings: SpecSettings = {};
  const include = filter(input.include_tags, input.include_paths, input.include_operations);
  const exclude = filter(input.exclude_tags, input.exclude_paths, input.exclude_operations);
  const names = functionNames(input.function_names);
  if (include) settings.include = include;
  if (exclude) settings.exclude = exclude;
  if (names) settings.function_names = names;
  if (input.base_url) settings.base_url = input.base_url;
  const auth: NonNullable<SpecSettings['auth']> = {};
  if (input.auth_scheme) auth.scheme = input.auth_scheme;
  if (input.auth_header) auth.header = input.auth_header;
  if (input.auth_query_param) auth.query_param = input.auth_query_param;
  if (input.auth_token_url) auth.token_url = input.auth_token_url;
  if (Object.keys(auth).length) settings.auth = auth;
  return { name: input.name, prefix, settings, authValue: input.auth_value, credentialSource: input.auth_credential_source };
}
