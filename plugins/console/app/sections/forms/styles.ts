// The Forms section's styles: the console's shared and form styles, panels
// and the page switcher.
import { css } from 'lit';
import { formStyles } from '../../ui/form-styles.ts';
import { shared } from '../../ui/styles.ts';

export const formsStyles = [shared, formStyles, css`
  section { margin-bottom: 1.5rem; }
  h3 { font-size: 1rem; margin: 1.25rem 0 0.5rem; }
  h4 { font-size: 0.95rem; margin: 1rem 0 0.4rem; }
  .panel { border: 1px solid var(--border); border-radius: 8px; padding: 1rem; background: var(--surface); margin-top: 1rem; }
  .pages { display: flex; flex-wrap: wrap; gap: 0.5rem; margin: 0 0 1rem; padding: 0; list-style: none; }
  .pages button[aria-current='page'] { background: #ddeafb; color: #0a3d73; border-color: #0a3d73; font-weight: 600; }
  .problem { color: var(--error); font-weight: 600; margin: 0.2rem 0; }
  .ok { color: var(--ok); font-weight: 600; }
  ul.errors { color: var(--error); margin: 0.25rem 0; }
  .row-actions { display: flex; flex-wrap: wrap; gap: 0.4rem; }
  .target-field { border-top: 1px solid var(--border); padding: 0.6rem 0; display: grid; gap: 0.4rem; }
  .binding { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: end; }
  .binding .field { min-width: 12rem; }
  .formio-host { display: block; background: var(--surface); border: 1px solid var(--border); border-radius: 8px; padding: 1rem; margin: 0.5rem 0; overflow-x: auto; }
`];
