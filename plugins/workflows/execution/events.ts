// The events this plugin emits, all with the same CloudEvents `source`.
//   workflow.completed  {execution_id, workflow_name, status, context}
//   workflow.failed     {execution_id, workflow_name, status: failed|cancelled, error, step_id}
//   definition.created  {definition_type: 'workflow', name, version}
//   definition.updated  {definition_type: 'workflow', name, version, changed_fields}
//   definition.deleted  {definition_type: 'workflow', name, version}
export const EVENT_SOURCE = '/workflows';
