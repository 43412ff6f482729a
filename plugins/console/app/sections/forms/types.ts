// The forms API's shapes the section reads (plugins/forms README).
export interface Definition { id: string; name: string; description: string; latest_version: number; created_at: string; updated_at: string; schema?: FormSchema }
export interface FormSchema { display?: string; components: FormComponent[]; [key: string]: unknown }
export interface FormComponent { type?: string; key?: string; label?: string; input?: boolean; tree?: boolean; components?: FormComponent[]; columns?: { components?: FormComponent[] }[]; rows?: { components?: FormComponent[] }[][]; [key: string]: unknown }
export interface VersionSummary { version: number; created_by: string | null; created_at: string }
export interface Validation { valid: boolean; errors: { path: string; message: string }[]; data: Record<string, unknown> }
export interface ConfigItem { key: string; label: string; type: 'fk' | 'choice' | 'boolean' | 'text'; required: boolean; default: unknown; help_text?: string | null; options?: { id: string | number; label: string }[] }
export interface Target { model: string; label: string; description: string; config_schema: ConfigItem[] }
export interface FieldInfo { key: string; label: string; field_type: string; category: 'required' | 'auto_filled' | 'optional' | 'dynamic'; required: boolean; help_text: string | null }
export type Transform = 'NONE' | 'TO_INT' | 'LOOKUP' | 'GEO_PARSE';
export interface Binding { source_field_path: string; target_field_path: string; transform: Transform; transform_params: Record<string, unknown> }
export interface UseCase { id: string; name: string; form_definition_id: string; form_version: number | 'latest'; target_model: string; target_config: Record<string, unknown>; access: 'public' | 'authenticated'; active: boolean; created_at: string }
export interface Paged<T> { items: T[]; total: number }
export interface SubmissionSummary {
  id: string; use_case_id: string; form_definition_id: string; form_version: number; payload_json: Record<string, unknown>; created_at: string;
  submitted_by: string | null; redacted_at: string | null;
  hydration: { status: 'hydrated' | 'failed'; attempts: number; target_model: string | null; object_id: string | null; object?: Record<string, unknown> | null; history?: Attempt[] };
}
export interface Attempt { attempt: number; status: 'hydrated' | 'failed'; target_model: string; object_id: string | null; object: Record<string, unknown> | null; errors: { path: string; message: string }[] }

/** The data paths of a form (what a binding's source may be): input fields, a container's (tree) fields under its key. */
export function formFieldPaths(components: FormComponent[], prefix = ''): { path: string; label: string }[] {
  const found: { path: string; label: string }[] = [];
  for (const c of components) {
    const nested = [...(c.components ?? []), ...(c.columns ?? []).flatMap((col) => col.components ?? []), ...(c.rows ?? []).flat().flatMap((cell) => cell?.components ?? [])];
    if (c.input && c.key && c.type !== 'button') {
      found.push({ path: `${prefix}${c.key}`, label: c.label || c.key });
      if (c.tree && nested.length) found.push(...formFieldPaths(nested, `${prefix}${c.key}.`));
    } else if (nested.length) found.push(...formFieldPaths(nested, prefix));
  }
  return found;
}
