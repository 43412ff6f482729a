// Form submission: the payload is validated against the
// use case's pinned form version by Form.io's engine, then — in one tenant
// transaction — its file tokens are consumed, the immutable submission is
// stored, the target's hydrate creates the object, the attempt is recorded
// and form.submitted and form.hydrated are emitted. Any failure rolls all of
// it back (nothing half-created). A preview runs the same steps in a
// transaction that always rolls back.
import { randomUUID } from 'node:crypto';
import type { CoreServices, TenantTransaction } from 'agent-platform/sdk';
import type { FormValidationError } from '../api.ts';
import { FORM_HYDRATED, FORM_HYDRATION_FAILED, FORM_SUBMITTED } from '../event-types.ts';
import { formsErrors } from '../errors.ts';
import { validateWithFormio } from '../formio/engine.ts';
import { submissionsStore } from '../store/submissions.ts';
import { useCasesStore } from '../store/use-cases.ts';
import type { TargetRegistry } from '../targets/registry.ts';
import type { FilesService } from './files.ts';
import type { Hydrated, Hydrator } from './hydrate.ts';
import { formVersion } from './targets.ts';

/** Who submits: a user's subject, or null for an anonymous visitor of a public use case. */
export interface Submitter {
  sub: string | null;
}

export interface SubmissionInput {
  payload: Record<string, unknown>;
  municipality?: string | null;
}

export interface SubmitResult {
  id: string;
  use_case_id: string;
  form_definition_id: string;
  form_version: number;
  municipality: string | null;
  created_at: Date;
  files: { id: string; path: string; name: string; content_type: string; size: number }[];
  hydration: Hydrated;
}

/** Carries a preview's result out of the transaction it rolls back. */
class PreviewRollback extends Error {
  readonly result: SubmitResult;
  constructor(result: SubmitResult) {
    super('preview');
    this.result = result;
  }
}

export function createSubmissionsService(core: CoreServices, registry: TargetRegistry, files: FilesService, hydrate: Hydrator) {
  /** The whole submission in `trx`; `preview` skips the access rules (an admin previews) and the events. */
  async function run(trx: TenantTransaction, tenantId: string, useCaseId: string, submitter: Submitter, input: SubmissionInput, preview: boolean) {
    const useCase = await useCasesStore.find(trx, useCaseId);
    if (!useCase || (!preview && !useCase.active)) throw formsErrors.useCaseNotFound();
    if (!preview && useCase.access === 'authenticated' && submitter.sub === null) throw formsErrors.authenticationRequired('This use case');
    const form = await formVersion(trx, useCase.definition_id, useCase.form_version);
    const { data, errors } = validateWithFormio(form.schema as { components: never[] }, input.payload);
    if (errors.length) throw formsErrors.validationFailed(errors);
    const target = registry.find(useCase.target_model);
    if (!target) throw formsErrors.targetUnavailable(useCase.target_model);

    const claimed = await files.claim(trx, data, submitter.sub);
    const id = randomUUID();
    const municipality = input.municipality ?? null;
    const stored = await submissionsStore.insert(trx, tenantId, {
      id, use_case_id: useCase.id, definition_id: useCase.definition_id, form_version: form.version, payload_json: data, municipality, submitted_by: submitter.sub,
    });
    await files.consume(trx, claimed, id);
    const hydration = await hydrate({
      tenantId, trx, target, useCase, schema: form.schema, submittedBy: submitter.sub, preview,
      bindings: await useCasesStore.bindings(trx, useCase.id),
      submission: { id, form_definition_id: useCase.definition_id, form_version: form.version, payload_json: data, municipality, files: claimed },
    });
    const result: SubmitResult = {
      id, use_case_id: useCase.id, form_definition_id: useCase.definition_id, form_version: form.version, municipality,
      created_at: stored.created_at, files: claimed, hydration,
    };
    if (preview) throw new PreviewRollback(result);
    await submissionsStore.addHydration(trx, tenantId, {
      submission_id: id, attempt: 1, status: 'hydrated', target_model: hydration.target_model, object_id: hydration.object_id,
      object: hydration.object, errors: [], created_by: submitter.sub,
    });
    const source = `/forms/use-cases/${useCase.id}`;
    await core.events.emit(trx, tenantId, {
      type: FORM_SUBMITTED, source,
      data: { submission_id: id, use_case_id: useCase.id, form_definition_id: useCase.definition_id, form_version: form.version, municipality },
    });
    await core.events.emit(trx, tenantId, {
      type: FORM_HYDRATED, source,
      data: { submission_id: id, use_case_id: useCase.id, target_model: hydration.target_model, object_id: hydration.object_id, attempt: 1 },
    });
    return result;
  }

  return {
    /** What a renderer needs: the pinned form version's schema and number (the latest when the use case says so). */
    form: (tenantId: string, useCaseId: string, submitter: Submitter) => core.withTenant(tenantId, async (trx) => {
      const useCase = await useCasesStore.find(trx, useCaseId);
      if (!useCase || !useCase.active) throw formsErrors.useCaseNotFound();
      if (useCase.access === 'authenticated' && submitter.sub === null) throw formsErrors.authenticationRequired('This use case');
      const form = await formVersion(trx, useCase.definition_id, useCase.form_version);
      return { id: useCase.id, name: useCase.name, access: useCase.access, form_definition_id: form.definition_id, form_version: form.version, schema: form.schema };
    }),

    submit: (tenantId: string, useCaseId: string, submitter: Submitter, input: SubmissionInput) =>
      core.withTenant(tenantId, (trx) => run(trx, tenantId, useCaseId, submitter, input, false)),

    /**
     * Validation and hydration in a transaction rolled back at the end: the
     * object it would create, and nothing created. A failure of the
     * hydration stage is reported as form.hydration_failed (preview: true).
     */
    async preview(tenantId: string, useCaseId: string, submitter: Submitter, input: SubmissionInput): Promise<SubmitResult> {
      try {
        await core.withTenant(tenantId, (trx) => run(trx, tenantId, useCaseId, submitter, input, true));
      } catch (err) {
        if (err instanceof PreviewRollback) return err.result;
        const code = (err as { output?: { payload?: { code?: string; errors?: FormValidationError[]; target_model?: string } } }).output?.payload;
        if (code?.code === 'HYDRATION_FAILED' || code?.code === 'TRANSFORM_FAILED') {
          const model = code.target_model ?? (await core.withTenant(tenantId, (trx) => useCasesStore.find(trx, useCaseId)))?.target_model ?? '';
          await core.withTenant(tenantId, (trx) => core.events.emit(trx, tenantId, {
            type: FORM_HYDRATION_FAILED, source: `/forms/use-cases/${useCaseId}`,
            data: { use_case_id: useCaseId, submission_id: null, preview: true, target_model: model, errors: code.errors ?? [] },
          }));
        }
        throw err;
      }
      throw new Error('unreachable: a preview always rolls back');
    },
  };
}

export type SubmissionsService = ReturnType<typeof createSubmissionsService>;
