// The workflow engine: a pure, Deno-compatible interpreter plus the event
// filters, type patterns and templates shared with the events plugin.
export { advance, initialState, pendingEvents } from './advance.ts';
export {
  validateDefinition, approversProblems, WAIT_HANDLER, DEFAULT_WAIT_TIMEOUT_SECONDS, DEFAULT_APPROVAL_TIMEOUT_SECONDS, MAX_WAIT_TIMEOUT_SECONDS,
} from './validate.ts';
export { evaluateCondition, CONDITION_OPERATORS } from './conditions.ts';
export { validateFilter, evaluateFilter, matchesFilter, type EventFilter, type Condition } from './filters.ts';
export { isValidEventType, isValidTypePattern, matchesTypePattern } from './patterns.ts';
export { validateTemplates, resolveTemplates, templatePaths, scanTemplates, TemplateTooLongError, MAX_TEMPLATE_LENGTH, type TemplateMatch } from './templates.ts';
export { valueAt, MISSING } from './paths.ts';
export type * from './types.ts';
