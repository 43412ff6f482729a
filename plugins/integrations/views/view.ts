// How specs, functions and import plans read from outside (REST, GraphQL,
// CLI). Credential values never appear: only whether one is set.
import type { AuthConfig, FunctionParameters } from '../openapi/model.ts';
import type { PlannedChange } from '../changes/plan.ts';
import type { SpecRow } from '../store/specs.ts';
import type { FunctionRow } from '../store/functions.ts';

export function authView(auth: AuthConfig, valueSet: boolean) {
  return {
    scheme: auth.scheme,
    header: auth.header,
    query_param: auth.query_param,
    credential_source: auth.credential_source,
    token_url: auth.token_url,
    scopes: auth.scopes,
    value_set: valueSet,
    inferred: auth.inferred,
  };
}

export function specView(row: SpecRow) {
  const { include, exclude, function_names, base_url } = row.settings;
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    source_kind: row.source_kind,
    source: row.source_url,
    content_hash: row.content_hash,
    status: row.status,
    format: row.format,
    title: row.title,
    api_version: row.api_version,
    base_url: row.base_url,
    function_count: row.function_count ?? 0,
    removed_count: row.removed_count ?? 0,
    auth: authView(row.auth, row.auth_value_sealed !== null),
    settings: { include: include ?? null, exclude: exclude ?? null, function_names: function_names ?? null, base_url: base_url ?? null },
    warnings: row.warnings,
    last_sync_at: row.last_sync_at,
    last_sync_result: row.last_sync_result,
    last_error: row.last_error,
    version: row.version,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export type SpecView = ReturnType<typeof specView>;

export function functionView(row: FunctionRow) {
  return {
    name: row.name,
    source: row.source,
    spec_id: row.spec_id,
    operation: row.operation_key,
    operation_id: row.operation_id,
    method: row.method,
    path: row.path,
    summary: row.summary,
    description: row.description,
    description_edited: row.description_edited,
    parameters: row.parameters,
    json_schema: row.json_schema,
    auth: authView(row.auth, row.auth_value_set),
    status: row.status,
    warnings: row.warnings,
    version: row.version,
    created_at: row.created_at,
    updated_at: row.updated_at,
    removed_at: row.removed_at,
  };
}

export type FunctionView = ReturnType<typeof functionView>;

/** A parameter as the preview shows it: where it goes, whether it is required, its type. */
function previewParameters(parameters: FunctionParameters) {
  return Object.fromEntries(Object.entries(parameters).map(([name, p]) => [name, {
    location: p.location,
    required: p.required,
    type: (p.schema.type as string | string[] | undefined) ?? null,
    ...(p.original_name ? { original_name: p.original_name } : {}),
    ...(p.description ? { description: p.description } : {}),
  }]));
}

export function changeView(change: PlannedChange) {
  const fn = change.derived;
  return {
    name: change.name,
    action: change.action,
    operation: change.operation,
    ...(change.previous_name ? { previous_name: change.previous_name } : {}),
    ...(change.changed_fields ? { changed_fields: change.changed_fields } : {}),
    ...(fn
      ? {
        operation_id: fn.operation_id,
        description: change.existing?.description_edited ? change.existing.description : fn.description,
        parameters: previewParameters(fn.parameters),
        free_form_body: fn.request.free_form,
        ...(fn.warnings.length ? { warnings: fn.warnings.map((w) => w.message) } : {}),
      }
      : {}),
  };
}
