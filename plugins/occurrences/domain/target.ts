// The occurrences.Occurrence hydration target of the forms plugin: a form
// submission becomes an occurrence through the same
// path as a public submission (intake: type, location, service area, dynamic
// fields, duplicate policy), in the submission's transaction.
//
// Config: {occurrence_type: fk} (the tenant's active types). Fields: title
// and location (required), description, address and the reporter's contact
// (optional), the type's dynamic fields (`dynamic_fields.<key>`, category
// dynamic). Standard mappings: same-named form fields, and a Form.io
// `location` component (a "lat,lon" text, a {lat, lng} object, a GeoJSON
// point…) to the location through GEO_PARSE. A dynamic field nothing is
// bound to is read from the payload's field of the same key.
import Boom from '@hapi/boom';
import type { ConfigItem, FieldInfo, HydrationTarget, StandardMapping } from '../../forms/api.ts';
import { formioFields, type FormSchema } from './dynamic-fields.ts';
import type { FieldError } from '../errors.ts';
import type { Intake, SubmissionInput } from '../services/intake.ts';
import { publicOccurrence } from '../services/views.ts';
import { typesStore } from '../store/types.ts';

export const MODEL = 'occurrences.Occurrence';

const BASE_FIELDS: FieldInfo[] = [
  { key: 'title', label: 'Title', field_type: 'string', category: 'required', required: true, help_text: 'Up to 300 characters' },
  { key: 'location', label: 'Location', field_type: 'point', category: 'required', required: true, help_text: 'Latitude and longitude (GEO_PARSE)' },
  { key: 'description', label: 'Description', field_type: 'string', category: 'optional', required: false },
  { key: 'address', label: 'Address', field_type: 'string', category: 'optional', required: false },
  { key: 'reporter_name', label: 'Reporter name', field_type: 'string', category: 'optional', required: false },
  { key: 'reporter_email', label: 'Reporter e-mail', field_type: 'string', category: 'optional', required: false },
  { key: 'reporter_phone', label: 'Reporter phone', field_type: 'string', category: 'optional', required: false },
  { key: 'reference', label: 'Reference', field_type: 'string', category: 'auto_filled', required: false },
  { key: 'state', label: 'State', field_type: 'string', category: 'auto_filled', required: false },
];

const STANDARD: StandardMapping[] = [
  ...['title', 'description', 'address', 'reporter_name', 'reporter_email', 'reporter_phone'].map((key) => ({ source_path: key, target_field: key })),
  { source_path: 'location', target_field: 'location', component: 'latitude' },
  { source_path: 'location', target_field: 'location', component: 'longitude' },
];

const DYNAMIC = 'dynamic_fields.';
function dynamicFields(schema: FormSchema): FieldInfo[] {
  const fields = schema.version === 'v0' ? schema.dynamic_fields : formioFields(schema.schema?.components);
  return fields.map((field) => ({
    key: `${DYNAMIC}${field.key}`, label: field.label, field_type: field.type, category: 'dynamic' as const, required: false,
    help_text: field.required ? 'Required by the occurrence type (checked when the occurrence is created)' : null,
  }));
}

function str(value: unknown): string | undefined {
  return value === undefined || value === null ? undefined : String(value);
}

export function occurrenceTarget(intake: Intake): HydrationTarget {
  return {
    model: MODEL,
    label: 'Occurrence',
    description: 'A reported occurrence (a pothole, a dark street): created as a public submission is, duplicate policy included',

    async configSchema({ trx }): Promise<ConfigItem[]> {
      const types = await typesStore.list(trx, true);
      return [{
        key: 'occurrence_type', label: 'Occurrence type', type: 'fk', required: true,
        options: types.map((type) => ({ id: type.id, label: type.name })), help_text: 'The type every submission of the use case reports',
      }];
    },

    async discoverFields(config, { trx }) {
      const type = await typesStore.find(trx, Number(config.occurrence_type));
      return type ? [...BASE_FIELDS, ...dynamicFields(type.form_schema as unknown as FormSchema)] : BASE_FIELDS;
    },

    standardMappings: () => STANDARD,

    async hydrate(ctx, submission, _bindings, config) {
      const { values, payload_json: payload } = submission;
      const type = await typesStore.find(ctx.trx, Number(config.occurrence_type));
      const dynamic: Record<string, unknown> = {};
      for (const field of type ? dynamicFields(type.form_schema as unknown as FormSchema) : []) {
        const key = field.key.slice(DYNAMIC.length);
        const value = values[field.key] !== undefined ? values[field.key] : payload[key];
        if (value !== undefined && value !== null && value !== '') dynamic[key] = value;
      }
      const point = values.location as { coordinates: [number, number] };
      const input: SubmissionInput = {
        title: String(values.title ?? ''), description: str(values.description) ?? '', occurrence_type: Number(config.occurrence_type),
        latitude: point.coordinates[1], longitude: point.coordinates[0], address: str(values.address) ?? null,
        reporter_name: str(values.reporter_name) ?? null, reporter_email: str(values.reporter_email) ?? null, reporter_phone: str(values.reporter_phone) ?? null,
        dynamic_fields: dynamic,
      };
      const attachments = submission.files.map((file) => ({ ...file, submission_id: submission.id }));
      try {
        const { row, duplicates } = await intake.submitIn(ctx.trx, ctx.tenantId, input, { source: 'form', submittedBy: ctx.submittedBy, attachments });
        return { ...publicOccurrence(row), ...(duplicates?.has_duplicates ? { possible_duplicates: duplicates.similar_reports } : {}) };
      } catch (err) {
        const errors = Boom.isBoom(err) && err.output.statusCode === 422 ? (err.output.payload as unknown as { errors?: FieldError[] }).errors : undefined;
        if (errors) ctx.reject(errors);
        throw err;
      }
    },
  };
}
