// The event types the forms plugin registers and emits (in the transaction of
// what they report). Their data never carries the payload: it may hold
// personal data, and events outlive a redaction.
import type { EventTypeDefinition } from 'agent-platform/sdk';

export const FORM_SUBMITTED = 'form.submitted';
export const FORM_HYDRATED = 'form.hydrated';
export const FORM_HYDRATION_FAILED = 'form.hydration_failed';

const id = { type: 'string' };

export const EVENT_TYPES: EventTypeDefinition[] = [
  {
    type: FORM_SUBMITTED,
    description: 'A form submission is stored (with its hydration); data has submission_id, use_case_id, form_definition_id, form_version, municipality',
    schema: {
      type: 'object',
      required: ['submission_id', 'use_case_id', 'form_definition_id', 'form_version'],
      properties: { submission_id: id, use_case_id: id, form_definition_id: id, form_version: { type: 'integer' }, municipality: { type: ['string', 'null'] } },
    },
  },
  {
    type: FORM_HYDRATED,
    description: 'A submission created its target object (at submission or on rehydration); data has submission_id, use_case_id, target_model, object_id, attempt',
    schema: {
      type: 'object',
      required: ['submission_id', 'use_case_id', 'target_model', 'object_id'],
      properties: { submission_id: id, use_case_id: id, target_model: id, object_id: id, attempt: { type: 'integer' } },
    },
  },
  {
    type: FORM_HYDRATION_FAILED,
    description: 'A preview or a rehydration could not create the target object; data has use_case_id, submission_id (null for a preview), preview, target_model, errors',
    schema: {
      type: 'object',
      required: ['use_case_id', 'target_model', 'preview', 'errors'],
      properties: {
        use_case_id: id, submission_id: { type: ['string', 'null'] }, target_model: id, preview: { type: 'boolean' },
        errors: { type: 'array', items: { type: 'object', properties: { path: id, message: id } } },
      },
    },
  },
];
