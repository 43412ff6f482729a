// What each audience sees of an occurrence. Reporters' contact data (name,
// e-mail, phone) and who submitted are for staff only: public answers,
// events and Open311 use the public view.
import type { OccurrenceRow } from '../store/occurrences.ts';
import type { TypeRow } from '../store/types.ts';

export function publicOccurrence(row: OccurrenceRow) {
  return {
    id: row.id, reference: row.reference, occurrence_type: row.type_id, title: row.title, description: row.description,
    latitude: row.latitude, longitude: row.longitude, address: row.address, state: row.state, duplicate_of: row.duplicate_of,
    created_at: row.created_at, updated_at: row.updated_at,
  };
}

export function staffOccurrence(row: OccurrenceRow) {
  return {
    ...publicOccurrence(row),
    reporter_name: row.reporter_name, reporter_email: row.reporter_email, reporter_phone: row.reporter_phone,
    dynamic_fields: row.dynamic_fields, attachments: row.attachments, source: row.source, submitted_by: row.submitted_by,
    support_count: row.support_count,
  };
}

export function publicType(row: TypeRow) {
  return { id: row.id, name: row.name, code: row.code, form_schema: row.form_schema };
}

export function staffType(row: TypeRow) {
  return row;
}
