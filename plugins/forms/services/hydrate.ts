// One hydration: the use case's bindings (and the target's standard
// mappings) applied to a stored payload, the target's required fields
// checked, then the target's hydrate run in the caller's transaction. Every
// failure is a 422 carrying [{path, message}]: the payload's values
// (TRANSFORM_FAILED) or the target's field errors (HYDRATION_FAILED).
import Boom from '@hapi/boom';
import type { CoreServices, TenantTransaction } from 'agent-platform/sdk';
import type {
  FieldBinding, HydratedObject, HydrationSubmission, HydrationTarget, SubmissionFile, TargetConfig, TargetFieldError,
} from '../api.ts';
import { formsErrors } from '../errors.ts';
import { formFields } from '../formio/fields.ts';
import { effectiveBindings, mustHaveValue, resolveValues } from '../hydration/bindings.ts';

/** What a target throws through ctx.reject. */
class HydrationRejected extends Error {
  readonly errors: TargetFieldError[];
  constructor(errors: TargetFieldError[]) {
    super('hydration rejected');
    this.errors = errors;
  }
}

export interface HydrationJob {
  tenantId: string;
  trx: TenantTransaction;
  target: HydrationTarget;
  useCase: { id: string; name: string; target_config: TargetConfig };
  bindings: FieldBinding[];
  schema: Record<string, unknown>;
  submission: Omit<HydrationSubmission, 'values' | 'files'> & { files: SubmissionFile[] };
  submittedBy: string | null;
  preview: boolean;
}

export interface Hydrated {
  target_model: string;
  object_id: string;
  object: HydratedObject;
}

export function createHydrator(core: CoreServices) {
  return async function hydrate(job: HydrationJob): Promise<Hydrated> {
    const { target, trx, tenantId } = job;
    const model = target.model;
    const ctx = { tenantId, trx };
    const fields = await target.discoverFields(job.useCase.target_config, ctx);
    const standard = target.standardMappings?.() ?? [];
    const bindings = effectiveBindings(job.bindings, standard, formFields(job.schema as { components: never[] }));
    const { values, errors } = resolveValues(job.submission.payload_json, bindings);
    if (errors.length) throw formsErrors.transformFailed(errors);
    const missing = fields.filter((field) => mustHaveValue(field) && values[field.key] === undefined);
    if (missing.length) {
      throw formsErrors.hydrationFailed(model, missing.map((field) => {
        const source = bindings.find((binding) => binding.target_field_path === field.key)?.source_field_path;
        return { path: field.key, message: `${field.label} is required by ${model}${source ? ` (from ${source}, which is empty)` : ' and nothing is bound to it'}` };
      }));
    }
    let object: HydratedObject;
    try {
      object = await target.hydrate(
        {
          ...ctx, preview: job.preview, useCase: { id: job.useCase.id, name: job.useCase.name }, submittedBy: job.submittedBy,
          reject: (rejected) => {
            throw new HydrationRejected(rejected);
          },
        },
        { ...job.submission, values },
        bindings,
        job.useCase.target_config,
      );
    } catch (err) {
      if (err instanceof HydrationRejected) {
        throw formsErrors.hydrationFailed(model, err.errors.map((error) => ({ path: String(error.field), message: String(error.message) })));
      }
      if (Boom.isBoom(err) && !err.isServer) throw err;
      core.logger.error({ err, model, useCase: job.useCase.id }, 'forms: a hydration target failed');
      throw formsErrors.hydrationFailed(model, [], `The target ${model} could not create the object`);
    }
    const id = (object as { id?: unknown } | null)?.id;
    if (typeof id !== 'string' && typeof id !== 'number') {
      core.logger.error({ model, useCase: job.useCase.id }, 'forms: a hydration target returned no object id');
      throw formsErrors.hydrationFailed(model, [], `The target ${model} returned no object id`);
    }
    return { target_model: model, object_id: String(id), object };
  };
}

export type Hydrator = ReturnType<typeof createHydrator>;
