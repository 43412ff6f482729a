// What the Ontology section's parts share: their styles, who may edit, and
// how dates and fingerprints are written.
import { css } from 'lit';
import type { Roles } from '../contract.ts';
import { formStyles } from '../../ui/form-styles.ts';
import { scrollRegionStyles } from '../../ui/scroll-region.ts';
import { shared } from '../../ui/styles.ts';

export const ontologyStyles = [shared, formStyles, scrollRegionStyles, css`
  h3 { font-size: 1rem; margin: 1.25rem 0 0.4rem; }
  h4 { font-size: 0.95rem; margin: 1rem 0 0.4rem; }
  .head { display: flex; justify-content: space-between; align-items: baseline; gap: 1rem; flex-wrap: wrap; }
  .head h2, .head h3 { overflow-wrap: anywhere; }
  .panel { border: 1px solid var(--border); border-radius: 8px; padding: 0 1rem 1rem; margin-top: 1rem; background: var(--surface); min-width: 0; }
  .mono { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 0.875rem; overflow-wrap: anywhere; }
  dl { margin: 0.5rem 0; }
  dd { overflow-wrap: anywhere; }
  ul.changes { margin: 0; padding-left: 1.1rem; }
  .error { color: var(--error); }
  section > .actions { margin: 0.75rem 0; }
`];

/** Whether the roles may change entity types, backing datasets and policies (the API's editor rule). */
export function canEdit(roles: Roles): boolean {
  return roles === '*' || roles.includes('admin') || roles.includes('pipeline_editor');
}

export function when(value: string | null | undefined, locale: string): string {
  if (!value) return '—';
  return new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'medium' }).format(new Date(value));
}

/** `sha256:` and the first 12 hex digits: enough to tell fingerprints apart at a glance (the whole one is the title). */
export function shortFingerprint(value: string | null | undefined): string {
  if (!value) return '—';
  return value.replace(/^(sha256:)?([0-9a-f]{12})[0-9a-f]*$/, (_, prefix: string | undefined, head: string) => `${prefix ?? ''}${head}…`);
}
