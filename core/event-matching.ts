// Event type patterns (exact, `prefix.*`, `*`), event filters and `{{path}}`
// templates: the workflow engine's own (workflows/engine stays pure and
// Deno-compatible), shared with the core's event catalog and, through
// agent-platform/sdk, with every plugin that matches or renders events.
export { isValidEventType, isValidTypePattern, matchesTypePattern } from '../workflows/engine/patterns.ts';
export { evaluateFilter, matchesFilter, validateFilter, type Condition, type EventFilter, type KeyResult } from '../workflows/engine/filters.ts';
export {
  MAX_TEMPLATE_LENGTH, resolveTemplates, scanTemplates, templatePaths, TemplateTooLongError, validateTemplates, type TemplateMatch,
} from '../workflows/engine/templates.ts';
