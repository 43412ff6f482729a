// The forms plugin's errors with their stable codes. A 422 lists its problems
// as `errors: [{path, message}]` (payload paths, or target fields).
import { domainError } from 'agent-platform/sdk';
import type { FormValidationError } from './api.ts';

function withErrors(status: number, message: string, code: string, errors: FormValidationError[]) {
  const error = domainError(status, message, code);
  (error.output.payload as Record<string, unknown>).errors = errors;
  return error;
}

export const formsErrors = {
  schemaInvalid(problems: string[]) {
    const error = domainError(400, `The form schema is not accepted: ${problems.join('; ')}`, 'FORM_SCHEMA_INVALID');
    (error.output.payload as Record<string, unknown>).problems = problems;
    return error;
  },
  bindingsInvalid(problems: string[]) {
    const error = domainError(400, `The bindings are not accepted: ${problems.join('; ')}`, 'BINDINGS_INVALID');
    (error.output.payload as Record<string, unknown>).problems = problems;
    return error;
  },
  /** Required target fields that no binding or standard mapping feeds: every submission would fail. */
  requiredFieldUnbound(fields: string[]) {
    const error = domainError(400, `Required target fields have no binding or standard mapping: ${fields.join(', ')}`, 'REQUIRED_FIELD_UNBOUND');
    (error.output.payload as Record<string, unknown>).fields = fields;
    return error;
  },
  validationFailed: (errors: FormValidationError[]) =>
    withErrors(422, `The payload does not satisfy the form version: ${errors.length} problem(s)`, 'FORM_VALIDATION_FAILED', errors),
  filesInvalid: (errors: FormValidationError[]) =>
    withErrors(422, `File references are not usable: ${errors.map((error) => `${error.path}: ${error.message}`).join('; ')}`, 'FILE_TOKEN_INVALID', errors),
  transformFailed: (errors: FormValidationError[]) =>
    withErrors(422, `Values cannot be turned into the target's fields: ${errors.map((error) => error.message).join('; ')}`, 'TRANSFORM_FAILED', errors),
  hydrationFailed: (model: string, errors: FormValidationError[], message?: string) => {
    const error = withErrors(422, message ?? `The target ${model} refused the submission: ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`, 'HYDRATION_FAILED', errors);
    (error.output.payload as Record<string, unknown>).target_model = model;
    return error;
  },
  useCaseNotFound: () => domainError(404, 'Use case not found (or not active)', 'USE_CASE_NOT_FOUND'),
  definitionNotFound: () => domainError(404, 'Form definition not found', 'FORM_DEFINITION_NOT_FOUND'),
  versionNotFound: (version: number) => domainError(404, `Form version ${version} not found`, 'FORM_VERSION_NOT_FOUND'),
  submissionNotFound: () => domainError(404, 'Submission not found', 'SUBMISSION_NOT_FOUND'),
  authenticationRequired: (what: string) => domainError(401, `${what} needs a signed-in user of the tenant (Authorization: Bearer)`, 'AUTHENTICATION_REQUIRED'),
  fileTooLarge: (maxBytes: number) => domainError(413, `The file is larger than FORMS_MAX_FILE_BYTES (${maxBytes} bytes)`, 'FILE_TOO_LARGE'),
  lengthRequired: () => domainError(411, 'An anonymous upload must declare its Content-Length', 'LENGTH_REQUIRED'),
  anonymousQuotaExceeded: (quota: number) =>
    domainError(413, `The tenant's unused anonymous uploads would exceed FORMS_ANONYMOUS_STORAGE_BYTES (${quota} bytes): use the files already uploaded, or wait for them to expire`, 'ANONYMOUS_QUOTA_EXCEEDED'),
  targetUnavailable: (model: string) =>
    domainError(409, `The use case's target ${model} is not registered in this deployment`, 'TARGET_UNAVAILABLE'),
};
