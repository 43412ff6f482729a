// What admins do with stored submissions: read them (filtered, paginated,
// with their files and hydration attempts), download a file, rehydrate one
// (run its target again: a new attempt, recorded whatever its outcome), and
// redact one — the only change a submission ever gets: named fields and every
// file's name and bytes become a tombstone, and the redaction is recorded.
import { badRequest, type CoreServices, type KeysetPage, type TenantTransaction } from 'agent-platform/sdk';
import type { FormValidationError, SubmissionFile } from '../api.ts';
import { FORM_HYDRATED, FORM_HYDRATION_FAILED } from '../event-types.ts';
import { formsErrors } from '../errors.ts';
import { valueAt } from '../hydration/bindings.ts';
import { definitionsStore } from '../store/definitions.ts';
import { filesStore } from '../store/files.ts';
import { submissionsStore, type SubmissionFilter, type SubmissionRow } from '../store/submissions.ts';
import { useCasesStore } from '../store/use-cases.ts';
import type { TargetRegistry } from '../targets/registry.ts';
import type { Hydrator } from './hydrate.ts';
import { formVersion } from './targets.ts';

export const TOMBSTONE = '[redacted]';

/** `rows[1].n` (Form.io's paths) and `rows.1.n` name the same value. */
export const dotted = (path: string) => path.replace(/\[(\d+)\]/g, '.$1');

export function submissionView(row: SubmissionRow) {
  return {
    id: row.id,
    use_case_id: row.use_case_id,
    form_definition_id: row.definition_id,
    form_version: row.form_version,
    payload_json: row.payload_json,
    municipality: row.municipality,
    submitted_by: row.submitted_by,
    created_at: row.created_at,
    redacted_at: row.redacted_at,
    hydration: {
      status: row.hydration_status ?? 'failed',
      attempts: row.attempts ?? 0,
      target_model: row.target_model ?? null,
      object_id: row.object_id ?? null,
    },
  };
}

function setAt(data: Record<string, unknown>, path: string, value: unknown): void {
  const segments = dotted(path).split('.');
  const holder = valueAt(data, segments.slice(0, -1).join('.')) ?? (segments.length === 1 ? data : undefined);
  (holder as Record<string, unknown>)[segments.at(-1)!] = value;
}

export function createAdminSubmissionsService(core: CoreServices, registry: TargetRegistry, hydrate: Hydrator) {
  async function find(trx: TenantTransaction, id: string, forUpdate = false): Promise<SubmissionRow> {
    const row = await submissionsStore.find(trx, id, forUpdate);
    if (!row) throw formsErrors.submissionNotFound();
    return row;
  }

  async function detail(trx: TenantTransaction, row: SubmissionRow) {
    const [files, attempts, redactions] = await Promise.all([
      filesStore.ofSubmission(trx, row.id), submissionsStore.hydrations(trx, row.id), submissionsStore.redactions(trx, row.id),
    ]);
    const view = submissionView(row);
    return { ...view, hydration: { ...view.hydration, object: row.object ?? null, history: attempts }, files, redactions };
  }

  return {
    list: (tenantId: string, filter: SubmissionFilter, skip: number, limit: number) => core.withTenant(tenantId, async (trx) => {
      const { items, total } = await submissionsStore.list(trx, filter, skip, limit);
      return { items: items.map(submissionView), total };
    }),

    /** A keyset page by `seq` for GraphQL (see submissionsStore.page); rows keep `seq`. */
    page: (tenantId: string, filter: SubmissionFilter, page: KeysetPage<string>) =>
      core.withTenant(tenantId, (trx) => submissionsStore.page(trx, filter, page)),

    count: (tenantId: string, filter: SubmissionFilter) => core.withTenant(tenantId, (trx) => submissionsStore.count(trx, filter)),

    /** Submissions' use cases (archived included), in the order of `ids`; null for one that does not exist (a DataLoader batch). */
    useCasesOf: (tenantId: string, ids: readonly string[]) => core.withTenant(tenantId, async (trx) => {
      const rows = new Map((await useCasesStore.findManyAny(trx, ids)).map((row) => [row.id, row]));
      return ids.map((id) => rows.get(id) ?? null);
    }),

    /** Submissions' form definitions (archived included), in the order of `ids`; null for one that does not exist (a DataLoader batch). */
    definitionsOf: (tenantId: string, ids: readonly string[]) => core.withTenant(tenantId, async (trx) => {
      const rows = new Map((await definitionsStore.findManyAny(trx, ids)).map((row) => [row.id, row]));
      return ids.map((id) => rows.get(id) ?? null);
    }),

    find: (tenantId: string, id: string) => core.withTenant(tenantId, (trx) => submissionsStore.find(trx, id)),

    get: (tenantId: string, id: string) => core.withTenant(tenantId, async (trx) => detail(trx, await find(trx, id))),

    file: (tenantId: string, id: string, fileId: string) => core.withTenant(tenantId, async (trx) => {
      const file = await filesStore.content(trx, id, fileId);
      if (!file) throw formsErrors.submissionNotFound();
      return file;
    }),

    /**
     * Runs the target again on the stored payload with the use case's current
     * bindings. The target's work sits behind a savepoint: a failure undoes
     * it and is recorded as a failed attempt (form.hydration_failed); a
     * success is a new hydrated attempt (form.hydrated).
     */
    rehydrate: (tenantId: string, id: string, by: string) => core.withTenant(tenantId, async (trx) => {
      const row = await find(trx, id, true);
      const useCase = (await useCasesStore.findAny(trx, row.use_case_id))!;
      const target = registry.find(useCase.target_model);
      if (!target) throw formsErrors.targetUnavailable(useCase.target_model);
      const form = await formVersion(trx, row.definition_id, row.form_version);
      const files: SubmissionFile[] = (await filesStore.ofSubmission(trx, id)).map((file) => ({
        id: file.id, path: file.payload_path ?? '', name: file.name, content_type: file.content_type, size: file.size,
      }));
      const attempt = (row.attempts ?? 0) + 1;
      const source = `/forms/use-cases/${useCase.id}`;
      await submissionsStore.savepoint(trx);
      try {
        const hydrated = await hydrate({
          tenantId, trx, target, useCase, schema: form.schema, submittedBy: row.submitted_by, preview: false,
          bindings: await useCasesStore.bindings(trx, useCase.id),
          submission: {
            id, form_definition_id: row.definition_id, form_version: row.form_version, payload_json: row.payload_json, municipality: row.municipality, files,
          },
        });
        await submissionsStore.releaseSavepoint(trx);
        await submissionsStore.addHydration(trx, tenantId, { submission_id: id, attempt, status: 'hydrated', ...hydrated, errors: [], created_by: by });
        await core.events.emit(trx, tenantId, {
          type: FORM_HYDRATED, source,
          data: { submission_id: id, use_case_id: useCase.id, target_model: hydrated.target_model, object_id: hydrated.object_id, attempt },
        });
        return { attempt, status: 'hydrated' as const, ...hydrated, errors: [] };
      } catch (err) {
        const payload = (err as { output?: { statusCode?: number; payload?: { errors?: FormValidationError[]; message?: string } } }).output;
        if (payload?.statusCode !== 422) throw err;
        await submissionsStore.rollbackToSavepoint(trx);
        const errors = payload.payload?.errors?.length ? payload.payload.errors : [{ path: '', message: payload.payload?.message ?? 'hydration failed' }];
        await submissionsStore.addHydration(trx, tenantId, {
          submission_id: id, attempt, status: 'failed', target_model: target.model, object_id: null, object: null,
          errors: errors.map((error) => ({ field: error.path, message: error.message })), created_by: by,
        });
        await core.events.emit(trx, tenantId, {
          type: FORM_HYDRATION_FAILED, source, data: { use_case_id: useCase.id, submission_id: id, preview: false, target_model: target.model, errors },
        });
        return { attempt, status: 'failed' as const, target_model: target.model, object_id: null, object: null, errors };
      }
    }),

    /** Replaces `fields` (payload paths) and every file's name and bytes with a tombstone; 400 for a path the payload lacks. */
    redact: (tenantId: string, id: string, input: { fields: string[]; reason: string }, by: string) => core.withTenant(tenantId, async (trx) => {
      const row = await find(trx, id, true);
      const payload = structuredClone(row.payload_json);
      const absent = input.fields.filter((path) => valueAt(payload, dotted(path)) === undefined);
      if (absent.length) throw badRequest(`fields not in the submission's payload: ${absent.join(', ')}`, 'FIELD_NOT_IN_PAYLOAD');
      for (const path of input.fields) setAt(payload, path, TOMBSTONE);
      const files = await filesStore.ofSubmission(trx, id);
      for (const file of files) {
        const reference = file.payload_path ? valueAt(payload, dotted(file.payload_path)) : undefined;
        if (reference && typeof reference === 'object') Object.assign(reference, { name: TOMBSTONE, size: 0 });
      }
      const redacted = await filesStore.redact(trx, id, core.clock.now());
      await submissionsStore.redact(trx, id, payload);
      await submissionsStore.forgetObjects(trx, id);
      await submissionsStore.addRedaction(trx, tenantId, {
        submission_id: id, redacted_by: by, reason: input.reason, fields: input.fields, files: Number(redacted.numUpdatedRows),
      });
      return detail(trx, await find(trx, id));
    }),
  };
}

export type AdminSubmissionsService = ReturnType<typeof createAdminSubmissionsService>;
