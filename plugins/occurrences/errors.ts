// The occurrences plugin's errors with their stable codes. A 422 lists its
// problems as `errors: [{field, message}]`.
import { domainError } from 'agent-platform/sdk';

export interface FieldError {
  field: string;
  message: string;
}

function withExtra(status: number, message: string, code: string, extra: Record<string, unknown>) {
  const error = domainError(status, message, code);
  Object.assign(error.output.payload as Record<string, unknown>, extra);
  return error;
}

export const occurrenceErrors = {
  typeNotFound: () => domainError(404, 'Occurrence type not found', 'OCCURRENCE_TYPE_NOT_FOUND'),
  typeInactive: () => withExtra(422, 'occurrence_type: the type is not active', 'VALIDATION_FAILED', { errors: [{ field: 'occurrence_type', message: 'the type is not active' }] }),
  typeCodeTaken: (code: string) => domainError(409, `An occurrence type with code ${code} exists`, 'OCCURRENCE_TYPE_CODE_TAKEN'),
  typeInUse: () => domainError(409, 'The occurrence type has occurrences: deactivate it instead (active: false)', 'OCCURRENCE_TYPE_IN_USE'),
  formSchemaInvalid: (problems: string[]) => withExtra(400, `form_schema is not accepted: ${problems.join('; ')}`, 'FORM_SCHEMA_INVALID', { problems }),
  occurrenceNotFound: () => domainError(404, 'Occurrence not found', 'OCCURRENCE_NOT_FOUND'),
  occurrenceClosed: (state: string) => withExtra(409, `The occurrence is closed (state ${state}): it takes no support`, 'OCCURRENCE_CLOSED', { current_state: state }),
  validationFailed: (errors: FieldError[]) =>
    withExtra(422, `The occurrence is not valid: ${errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`, 'VALIDATION_FAILED', { errors }),
  outsideServiceArea: () => withExtra(422, 'The location is outside the service area of this tenant', 'OUTSIDE_SERVICE_AREA', {
    errors: [{ field: 'location', message: 'outside the service area' }],
  }),
  duplicateDetected: (similar: unknown[]) =>
    withExtra(409, 'A similar occurrence was already reported nearby: this type refuses likely duplicates', 'DUPLICATE_DETECTED', { similar_reports: similar }),
  transitionNotAllowed: (from: string, to: string, allowed: string[]) =>
    withExtra(409, `No transition from ${from} to ${to}; allowed: ${allowed.join(', ') || 'none'}`, 'TRANSITION_NOT_ALLOWED', { allowed_transitions: allowed }),
  staleState: (expected: string, actual: string) =>
    withExtra(409, `The occurrence is in state ${actual}, not ${expected}`, 'STATE_CHANGED', { current_state: actual }),
  graphInvalid: (problems: string[]) => withExtra(400, `The state graph is not accepted: ${problems.join('; ')}`, 'STATE_GRAPH_INVALID', { problems }),
  templateNotFound: () => domainError(404, 'Template not found', 'TEMPLATE_NOT_FOUND'),
  templateNameTaken: (name: string) => domainError(409, `A template named ${name} exists`, 'TEMPLATE_NAME_TAKEN'),
  templateInvalid: (problems: string[]) => withExtra(400, `The template is not accepted: ${problems.join('; ')}`, 'TEMPLATE_INVALID', { problems }),
  serviceNotFound: () => domainError(404, 'Service not found', 'SERVICE_NOT_FOUND'),
};
