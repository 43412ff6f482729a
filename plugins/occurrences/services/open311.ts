// Open311 GeoReport v2 (so that existing civic apps report here): active occurrence types are services (service_code = the type's
// code), their dynamic fields the service definition's attributes, and
// occurrences are service requests (service_request_id = the reference),
// `closed` in a final state and `open` otherwise. Public fields only: a
// reporter's e-mail, name and phone are taken on POST and never shown.
import type { CoreServices } from 'agent-platform/sdk';
import { formioFields, type FormSchema } from '../domain/dynamic-fields.ts';
import { occurrenceErrors } from '../errors.ts';
import { occurrencesStore, type ListFilter, type OccurrenceRow } from '../store/occurrences.ts';
import { statesStore } from '../store/states.ts';
import { typesStore, type TypeRow } from '../store/types.ts';
import type { Intake } from './intake.ts';

export const SPECIFICATION = 'http://wiki.open311.org/GeoReport_v2';
/** The most requests one GET requests.json answers (the standard's default window is 90 days). */
export const MAX_REQUESTS = 1000;
const DEFAULT_WINDOW_DAYS = 90;

const V0_DATATYPES: Record<string, string> = {
  text: 'string', email: 'string', textarea: 'text', number: 'number', integer: 'number', date: 'datetime',
  boolean: 'singlevaluelist', select: 'singlevaluelist', multiselect: 'multivaluelist',
};
const FORMIO_DATATYPES: Record<string, string> = {
  textfield: 'string', email: 'string', phoneNumber: 'string', textarea: 'text', number: 'number', datetime: 'datetime',
  day: 'datetime', select: 'singlevaluelist', radio: 'singlevaluelist', checkbox: 'singlevaluelist', selectboxes: 'multivaluelist',
};

export interface Open311Post {
  service_code: string;
  lat: number;
  long: number;
  address_string?: string;
  description?: string;
  email?: string;
  first_name?: string;
  last_name?: string;
  phone?: string;
  attribute?: Record<string, unknown>;
}

export interface RequestsQuery {
  service_request_id?: string;
  service_code?: string;
  start_date?: Date;
  end_date?: Date;
  status?: 'open' | 'closed';
}

function attributes(type: TypeRow) {
  const schema = type.form_schema as unknown as FormSchema;
  const fields = schema.version === 'v0'
    ? schema.dynamic_fields.map((f) => ({ key: f.key, label: f.label, datatype: V0_DATATYPES[f.type] ?? 'string', required: f.required, options: f.type === 'boolean' ? ['true', 'false'] : f.options }))
    : formioFields(schema.schema?.components).map((f) => ({ key: f.key, label: f.label, datatype: FORMIO_DATATYPES[f.type] ?? 'string', required: f.required, options: f.type === 'checkbox' ? ['true', 'false'] : f.options }));
  return fields.map((field, index) => ({
    variable: true, code: field.key, datatype: field.datatype, required: field.required, datatype_description: null, order: index + 1,
    description: field.label, ...(field.options ? { values: field.options.map((value) => ({ key: value, name: value })) } : {}),
  }));
}

/** An attribute's text (form posts send text) as the type's field expects it. */
function typed(type: TypeRow, values: Record<string, unknown>): Record<string, unknown> {
  const schema = type.form_schema as unknown as FormSchema;
  const kinds = new Map<string, string>(schema.version === 'v0'
    ? schema.dynamic_fields.map((f) => [f.key, f.type])
    : formioFields(schema.schema?.components).map((f) => [f.key, f.type === 'number' ? 'number' : f.type === 'checkbox' ? 'boolean' : 'text']));
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    const kind = kinds.get(key);
    if (typeof value === 'string' && (kind === 'number' || kind === 'integer') && /^[+-]?\d+(\.\d+)?$/.test(value.trim())) out[key] = Number(value);
    else if (typeof value === 'string' && kind === 'boolean' && (value === 'true' || value === 'false')) out[key] = value === 'true';
    else if (typeof value === 'string' && kind === 'multiselect') out[key] = value.split(',').map((v) => v.trim()).filter(Boolean);
    else out[key] = value;
  }
  return out;
}

export function createOpen311Service(core: CoreServices, intake: Intake) {
  function request(row: OccurrenceRow, type: TypeRow | undefined, finals: string[], labels: Map<string, string>) {
    return {
      service_request_id: row.reference, status: finals.includes(row.state) ? 'closed' : 'open', status_notes: labels.get(row.state) ?? row.state,
      service_name: type?.name ?? null, service_code: type?.code ?? null, description: row.description || row.title, agency_responsible: null,
      service_notice: null, requested_datetime: row.created_at.toISOString(), updated_datetime: row.updated_at.toISOString(), expected_datetime: null,
      address: row.address, address_id: null, zipcode: null, lat: row.latitude, long: row.longitude, media_url: null,
    };
  }

  return {
    services: (tenantId: string) => core.withTenant(tenantId, async (trx) => (await typesStore.list(trx, true)).map((type) => ({
      service_code: type.code, service_name: type.name, description: type.name, metadata: attributes(type).length > 0,
      type: 'realtime', keywords: '', group: '',
    }))),

    definition: (tenantId: string, code: string) => core.withTenant(tenantId, async (trx) => {
      const type = await typesStore.findByCode(trx, code);
      if (!type || !type.active) throw occurrenceErrors.serviceNotFound();
      return { service_code: type.code, attributes: attributes(type) };
    }),

    requests: (tenantId: string, query: RequestsQuery) => core.withTenant(tenantId, async (trx) => {
      await statesStore.ensureSeeded(trx, tenantId);
      const [states, types] = await Promise.all([statesStore.states(trx), typesStore.list(trx, false)]);
      const finals = states.filter((s) => s.is_final).map((s) => s.key);
      const filter: ListFilter = {};
      if (query.service_request_id) filter.references = query.service_request_id.split(',').map((id) => id.trim()).filter(Boolean);
      else {
        const end = query.end_date ?? core.clock.now();
        filter.createdFrom = query.start_date ?? new Date(end.getTime() - DEFAULT_WINDOW_DAYS * 86_400_000);
        if (query.end_date) filter.createdTo = query.end_date;
      }
      if (query.service_code) {
        const type = types.find((t) => t.code === query.service_code);
        if (!type) return [];
        filter.typeId = type.id;
      }
      if (query.status === 'closed') filter.inStates = finals;
      if (query.status === 'open') filter.notInStates = finals;
      const { items } = await occurrencesStore.list(trx, filter, '-created_at', 0, MAX_REQUESTS);
      const labels = new Map(states.map((s) => [s.key, s.label]));
      return items.map((row) => request(row, types.find((t) => t.id === row.type_id), finals, labels));
    }),

    request: (tenantId: string, reference: string) => core.withTenant(tenantId, async (trx) => {
      await statesStore.ensureSeeded(trx, tenantId);
      const row = await occurrencesStore.findByReference(trx, reference);
      if (!row) throw occurrenceErrors.occurrenceNotFound();
      const states = await statesStore.states(trx);
      const type = await typesStore.find(trx, row.type_id);
      return [request(row, type, states.filter((s) => s.is_final).map((s) => s.key), new Map(states.map((s) => [s.key, s.label])))];
    }),

    /** A service request through the public submission's path (duplicate policy included). */
    async post(tenantId: string, body: Open311Post) {
      const type = await core.withTenant(tenantId, (trx) => typesStore.findByCode(trx, body.service_code));
      if (!type || !type.active) throw occurrenceErrors.serviceNotFound();
      const description = body.description ?? '';
      const name = [body.first_name, body.last_name].filter(Boolean).join(' ');
      const created = await intake.submit(tenantId, {
        title: (description.split('\n')[0] || type.name).slice(0, 300), description, occurrence_type: type.id, latitude: body.lat, longitude: body.long,
        address: body.address_string ?? null, reporter_name: name || null, reporter_email: body.email ?? null, reporter_phone: body.phone ?? null,
        dynamic_fields: typed(type, body.attribute ?? {}),
      }, { source: 'open311', submittedBy: null });
      return [{ service_request_id: created.reference, service_notice: null, account_id: null }];
    },
  };
}

export type Open311Service = ReturnType<typeof createOpen311Service>;
