// Message templates' `{{variable}}` rendering. Templates are tenant-written:
// they are found by the workflow engine's linear scanner (no regular
// expression, a length cap), and a variable is only ever looked up in a
// fixed set of names, never evaluated: tenant templates run no code.
import { MAX_TEMPLATE_LENGTH, scanTemplates, validateTemplates } from 'agent-platform/sdk';

/** The variables a template may use, with what each holds. */
export const VARIABLES: Record<string, string> = {
  id: 'the occurrence id',
  reference: 'its reference (OC-2026-000123)',
  title: 'its title',
  description: 'its description',
  address: 'its address',
  latitude: 'its latitude',
  longitude: 'its longitude',
  state: 'its state key',
  state_label: 'its state\'s label',
  type_name: 'its type\'s name',
  type_code: 'its type\'s code',
  created_at: 'when it was reported (ISO 8601)',
  reporter_name: 'the reporter\'s name',
  tracking_link: 'its public tracking page (OCCURRENCES_TRACKING_URL)',
};

export { MAX_TEMPLATE_LENGTH };

/** Syntax problems (unbalanced braces, a template that is not a name, over the length cap). */
export function syntaxProblems(texts: string[]): string[] {
  return validateTemplates(texts);
}

/** Variables used that are not in VARIABLES, in order of first use. */
export function unknownVariables(texts: string[]): string[] {
  const unknown = new Set<string>();
  for (const text of texts) for (const match of scanTemplates(text)) if (!Object.hasOwn(VARIABLES, match.path)) unknown.add(match.path);
  return [...unknown];
}

/** The text with each known variable replaced by its value (null: empty); unknown ones stay as written. */
export function render(text: string, values: Record<string, string | number | null>): string {
  if (!text.includes('{{')) return text;
  let out = '';
  let at = 0;
  for (const match of scanTemplates(text)) {
    out += text.slice(at, match.start);
    out += Object.hasOwn(values, match.path) ? String(values[match.path] ?? '') : text.slice(match.start, match.end);
    at = match.end;
  }
  return out + text.slice(at);
}
