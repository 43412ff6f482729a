// Dynamic fields of an occurrence against its type's form schema: v1 is a
// Form.io form, validated by the forms plugin's engine (FormsApi); legacy v0
// is a list of {key, label, type, required, options?} checked here. Either
// way the result is the values to store, or per-field errors (422).
import type { FormsApi } from '../../forms/api.ts';
import type { FieldError } from '../errors.ts';

export const V0_TYPES = ['text', 'textarea', 'number', 'integer', 'boolean', 'date', 'email', 'select', 'multiselect'] as const;

export interface V0Field {
  key: string;
  label: string;
  type: (typeof V0_TYPES)[number];
  required: boolean;
  options?: string[];
}

export type FormSchema =
  | { version: 'v1'; format: 'FORMIO'; schema: Record<string, unknown> }
  | { version: 'v0'; dynamic_fields: V0Field[] };

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function v0Problem(field: V0Field, value: unknown): string | null {
  switch (field.type) {
    case 'text':
    case 'textarea':
      return typeof value === 'string' && value.length <= 10_000 ? null : 'must be a text (at most 10000 characters)';
    case 'email':
      return typeof value === 'string' && EMAIL.test(value) ? null : 'must be an e-mail address';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? null : 'must be a number';
    case 'integer':
      return Number.isInteger(value) ? null : 'must be an integer';
    case 'boolean':
      return typeof value === 'boolean' ? null : 'must be true or false';
    case 'date':
      return typeof value === 'string' && DATE.test(value) && !Number.isNaN(Date.parse(value)) ? null : 'must be a date (YYYY-MM-DD)';
    case 'select':
      return typeof value === 'string' && (field.options ?? []).includes(value) ? null : `must be one of: ${(field.options ?? []).join(', ')}`;
    case 'multiselect':
      return Array.isArray(value) && value.every((v) => typeof v === 'string' && (field.options ?? []).includes(v))
        ? null : `must be a list of: ${(field.options ?? []).join(', ')}`;
  }
}

function validateV0(fields: V0Field[], values: Record<string, unknown>) {
  const errors: FieldError[] = [];
  const data: Record<string, unknown> = {};
  const known = new Set(fields.map((field) => field.key));
  for (const key of Object.keys(values)) if (!known.has(key)) errors.push({ field: `dynamic_fields.${key}`, message: 'is not a field of this type' });
  for (const field of fields) {
    const value = values[field.key];
    if (value === undefined || value === null || value === '') {
      if (field.required) errors.push({ field: `dynamic_fields.${field.key}`, message: `${field.label} is required` });
      continue;
    }
    const problem = v0Problem(field, value);
    if (problem) errors.push({ field: `dynamic_fields.${field.key}`, message: `${field.label} ${problem}` });
    else data[field.key] = value;
  }
  return { data, errors };
}

/** The dynamic field values to store, or the errors naming each field (`dynamic_fields.<key>`). */
export function validateDynamicFields(forms: FormsApi, schema: FormSchema, values: Record<string, unknown>): { data: Record<string, unknown>; errors: FieldError[] } {
  if (schema.version === 'v0') return validateV0(schema.dynamic_fields, values);
  const result = forms.validateAgainstForm(schema.schema, values);
  return { data: result.data, errors: result.errors.map((error) => ({ field: `dynamic_fields.${error.path}`, message: error.message })) };
}

/** Why a form_schema cannot be saved (empty: acceptable). */
export function formSchemaProblems(forms: FormsApi, schema: FormSchema): string[] {
  if (schema.version === 'v1') return forms.formSchemaProblems(schema.schema);
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const field of schema.dynamic_fields) {
    if (seen.has(field.key)) problems.push(`dynamic_fields: the key ${field.key} appears twice`);
    seen.add(field.key);
    if ((field.type === 'select' || field.type === 'multiselect') && !field.options?.length) problems.push(`dynamic_fields.${field.key}: a ${field.type} needs options`);
  }
  return problems;
}

const LAYOUT_TYPES = new Set(['button', 'htmlelement', 'content']);

/** The data fields of a Form.io schema (top level, through layout components). */
export interface FormioField {
  key: string;
  label: string;
  type: string;
  required: boolean;
  /** A select's or radio's values. */
  options?: string[];
}

function optionsOf(component: Record<string, any>): string[] | undefined {
  const values = component.data?.values ?? component.values;
  return Array.isArray(values) ? values.map((v: { value?: unknown }) => String(v?.value ?? '')) : undefined;
}

export function formioFields(components: unknown, out: FormioField[] = []): FormioField[] {
  if (!Array.isArray(components)) return out;
  for (const component of components as Record<string, any>[]) {
    if (!component || typeof component !== 'object') continue;
    if (component.input && typeof component.key === 'string' && !LAYOUT_TYPES.has(component.type)) {
      out.push({
        key: component.key, label: String(component.label ?? component.key), type: String(component.type),
        required: Boolean(component.validate?.required), options: optionsOf(component),
      });
    } else {
      formioFields(component.components, out);
      if (Array.isArray(component.columns)) for (const column of component.columns) formioFields(column?.components, out);
    }
  }
  return out;
}
