// The Transforms section's styles (its parts are separate shadow roots).
import { css } from 'lit';
import { formStyles } from '../../ui/form-styles.ts';
import { shared } from '../../ui/styles.ts';

export const transformsStyles = [shared, formStyles, css`
  section { margin-bottom: 1.5rem; }
  h3 { font-size: 1rem; margin: 1.25rem 0 0.5rem; }
  form { max-width: 56rem; }
  .panel { border: 1px solid var(--border); border-radius: 8px; padding: 0 1rem 1rem; background: var(--surface); margin-top: 1rem; }
  .panel-head { display: flex; flex-wrap: wrap; justify-content: space-between; align-items: baseline; gap: 0.5rem 1rem; }
  .panel h2 { overflow-wrap: anywhere; }
  .grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(14rem, 1fr)); gap: 0.75rem; align-items: start; }
  .grid .field { align-content: start; }
  ul.findings { list-style: none; padding: 0; margin: 0.25rem 0; display: grid; gap: 0.4rem; }
  ul.findings li { display: flex; flex-wrap: wrap; gap: 0.25rem 0.6rem; align-items: baseline; }
  .where, .label { font-weight: 600; }
  code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 0.9em; overflow-wrap: anywhere; }
  .error-text { color: var(--error); }
`];
