// The one path by which an occurrence is created (public submission, the
// forms hydration target, Open311): the type must exist and be active, the
// location lie in range and in the tenant's service area (when one is set),
// the dynamic fields satisfy the type's form schema; then the type's
// duplicate policy applies (allow: no check; warn: created, duplicates
// listed; reject: 409 with the similar reports). The occurrence starts in
// the tenant's initial state with a history entry, and occurrence.submitted
// (and occurrence.duplicate_detected) are emitted in the same transaction.
// File tokens a public report names are consumed in that transaction too, and
// the send_on_enter templates of the initial state are applied in it.
import type { CoreServices, TenantTransaction } from 'agent-platform/sdk';
import type { FormsApi } from '../../forms/api.ts';
import { validateDynamicFields, type FormSchema } from '../domain/dynamic-fields.ts';
import { inServiceArea, type ServiceArea } from '../domain/geo.ts';
import { occurrenceErrors, type FieldError } from '../errors.ts';
import { OCCURRENCE_DUPLICATE_DETECTED, OCCURRENCE_SUBMITTED } from '../event-types.ts';
import { occurrencesStore, type OccurrenceRow } from '../store/occurrences.ts';
import { settingsStore } from '../store/settings.ts';
import { statesStore } from '../store/states.ts';
import { typesStore, type TypeRow } from '../store/types.ts';
import type { OccurrenceSource } from '../store/tables.ts';
import { findDuplicates, type DuplicateCheck } from './duplicates.ts';
import type { Messaging } from './messaging.ts';

export interface SubmissionInput {
  title: string;
  description?: string;
  occurrence_type: number;
  latitude: number;
  longitude: number;
  address?: string | null;
  reporter_name?: string | null;
  reporter_email?: string | null;
  reporter_phone?: string | null;
  dynamic_fields?: Record<string, unknown>;
  /** File tokens of uploads (POST /api/forms/files), consumed with the occurrence (public_submit). */
  attachments?: unknown[];
}

export interface Origin {
  source: OccurrenceSource;
  submittedBy: string | null;
  /** Files already stored for it (the forms target: the submission's files). */
  attachments?: Record<string, unknown>[];
}

export function reference(year: number, number: number): string {
  return `OC-${year}-${String(number).padStart(6, '0')}`;
}

export function createIntake(core: CoreServices, forms: () => FormsApi, messaging: Messaging) {
  /** The active type and the location's problems (type, ranges, service area). */
  async function typeAndPlace(trx: TenantTransaction, input: SubmissionInput): Promise<TypeRow> {
    const type = Number.isSafeInteger(input.occurrence_type) ? await typesStore.find(trx, input.occurrence_type) : undefined;
    const errors: FieldError[] = [];
    if (!type) errors.push({ field: 'occurrence_type', message: 'no such occurrence type' });
    else if (!type.active) errors.push({ field: 'occurrence_type', message: 'the type is not active' });
    if (!(typeof input.latitude === 'number' && input.latitude >= -90 && input.latitude <= 90)) errors.push({ field: 'latitude', message: 'must be a number from -90 to 90' });
    if (!(typeof input.longitude === 'number' && input.longitude >= -180 && input.longitude <= 180)) errors.push({ field: 'longitude', message: 'must be a number from -180 to 180' });
    if (errors.length) throw occurrenceErrors.validationFailed(errors);
    const area = await settingsStore.serviceArea(trx);
    if (area && !inServiceArea(area as unknown as ServiceArea, input.latitude, input.longitude)) throw occurrenceErrors.outsideServiceArea();
    return type!;
  }

  /**
   * Consumes the report's file tokens for the new occurrence (the forms
   * plugin checks them: tenant, uploader, single use, expiry; 422
   * FILE_TOKEN_INVALID naming `attachments[i]`) and lists the files among its
   * attachments. The caller's transaction makes it all or nothing.
   */
  async function attach(trx: TenantTransaction, row: OccurrenceRow, tokens: unknown[], uploader: string | null): Promise<OccurrenceRow> {
    if (!tokens.length) return row;
    const files = await forms().claimFiles(trx, { tokens, uploader, owner: { plugin: 'occurrences', id: String(row.id) }, field: 'attachments' });
    const records = files.map(({ id, name, content_type, size }) => ({ id, name, content_type, size }));
    return occurrencesStore.setAttachments(trx, row.id, [...row.attachments, ...records]);
  }

  function report(input: SubmissionInput) {
    return { title: input.title, description: input.description ?? '', latitude: input.latitude, longitude: input.longitude };
  }

  async function submitIn(trx: TenantTransaction, tenantId: string, input: SubmissionInput, origin: Origin) {
    const type = await typeAndPlace(trx, input);
    const errors: FieldError[] = [];
    if (typeof input.title !== 'string' || !input.title.trim()) errors.push({ field: 'title', message: 'is required' });
    else if (input.title.trim().length > 300) errors.push({ field: 'title', message: 'at most 300 characters' });
    if ((input.description ?? '').length > 10_000) errors.push({ field: 'description', message: 'at most 10000 characters' });
    const fields = validateDynamicFields(forms(), type.form_schema as unknown as FormSchema, input.dynamic_fields ?? {});
    errors.push(...fields.errors);
    if (errors.length) throw occurrenceErrors.validationFailed(errors);

    await statesStore.ensureSeeded(trx, tenantId);
    const now = core.clock.now();
    const check: DuplicateCheck | null = type.duplicate_policy === 'allow' ? null : await findDuplicates(trx, type, report(input), now);
    if (check?.has_duplicates && type.duplicate_policy === 'reject') throw occurrenceErrors.duplicateDetected(check.similar_reports);

    const initial = (await statesStore.states(trx)).find((state) => state.is_initial);
    const state = initial?.key ?? 'submitted';
    const year = now.getUTCFullYear();
    const inserted = await occurrencesStore.insert(trx, tenantId, reference(year, await occurrencesStore.nextNumber(trx, tenantId, year)), {
      type_id: type.id, title: input.title.trim(), description: input.description ?? '', latitude: input.latitude, longitude: input.longitude,
      address: input.address ?? null, reporter_name: input.reporter_name ?? null, reporter_email: input.reporter_email ?? null,
      reporter_phone: input.reporter_phone ?? null, dynamic_fields: fields.data, attachments: origin.attachments ?? [], state,
      source: origin.source, submitted_by: origin.submittedBy, created_at: now,
    });
    const row = await attach(trx, inserted, input.attachments ?? [], origin.submittedBy);
    await occurrencesStore.addHistory(trx, tenantId, {
      occurrence_id: row.id, from_state: null, to_state: state, comment: `Reported (${origin.source})`, actor: origin.submittedBy, created_at: now,
    });
    const source = `/occurrences/${row.id}`;
    await core.events.emit(trx, tenantId, {
      type: OCCURRENCE_SUBMITTED, source,
      data: { occurrence_id: row.id, reference: row.reference, occurrence_type: type.id, state, source: origin.source },
    });
    if (check?.has_duplicates) {
      await core.events.emit(trx, tenantId, {
        type: OCCURRENCE_DUPLICATE_DETECTED, source,
        data: { occurrence_id: row.id, reference: row.reference, suggested_action: check.suggested_action, similar_ids: check.similar_reports.map((r) => r.id) },
      });
    }
    await messaging.onEnter(trx, tenantId, row);
    return { row, duplicates: check };
  }

  return {
    submitIn,

    /** Whether the tenant takes public reports (an active type): its citizens may then upload attachments anonymously. */
    takesReports: (trx: TenantTransaction) => typesStore.anyActive(trx),

    async submit(tenantId: string, input: SubmissionInput, origin: Origin) {
      const { row, duplicates } = await core.withTenant(tenantId, (trx) => submitIn(trx, tenantId, input, origin));
      return {
        id: row.id, reference: row.reference, state: row.state, created_at: row.created_at,
        ...(duplicates?.has_duplicates ? { possible_duplicates: duplicates.similar_reports } : {}),
      };
    },

    /**
     * The pre-submission check: the same answer whatever the type's policy
     * (dynamic fields are not checked). It seeds no states: a tenant without
     * them has had no submission, so nothing to find.
     */
    check: (tenantId: string, input: SubmissionInput) => core.withTenant(tenantId, async (trx) => {
      const type = await typeAndPlace(trx, input);
      return findDuplicates(trx, type, report(input), core.clock.now());
    }),
  };
}

export type Intake = ReturnType<typeof createIntake>;
