// The Sources section's styles: the console's shared and form styles and a
// few of its own (panels, the column lists, log lines).
import { css } from 'lit';
import { formStyles } from '../../ui/form-styles.ts';
import { shared } from '../../ui/styles.ts';

export const sourcesStyles = [shared, formStyles, css`
  section.panel { border: 1px solid var(--border); border-radius: 8px; padding: 0.75rem 1rem; margin: 1rem 0; background: var(--surface); }
  section.panel > h3 { margin: 0 0 0.5rem; font-size: 1rem; }
  h3 { font-size: 1rem; margin: 1rem 0 0.5rem; }
  .notice { border-left: 4px solid var(--warn); padding: 0.5rem 0.75rem; background: var(--bg); }
  .error-text { color: var(--error); white-space: pre-wrap; word-break: break-word; }
  ul.found { list-style: none; padding: 0; margin: 0; display: grid; gap: 0.75rem; }
  ul.found li { border: 1px solid var(--border); border-radius: 6px; padding: 0.5rem 0.75rem; }
  .cols { font-size: 0.875rem; color: var(--muted); margin: 0.25rem 0 0; word-break: break-word; }
  .row { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: start; }
  section.panel .actions { margin-top: 0.5rem; }
  .row .field { flex: 1 1 10rem; }
  ol.log { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 0.85rem; padding-left: 1.5rem; margin: 0.25rem 0; max-height: 20rem; overflow: auto; word-break: break-word; }
  dl { margin-bottom: 0.5rem; }
`];
