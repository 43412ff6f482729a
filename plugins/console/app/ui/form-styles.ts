// Styles of forms inside the console's shadow-DOM parts (the page's input
// styles do not reach a shadow root): labelled fields stacked, hints, the
// required marker, fieldsets, and a row of actions.
import { css } from 'lit';

export const formStyles = css`
  form { display: grid; gap: 0.75rem; max-width: 40rem; }
  .field { display: grid; gap: 0.2rem; }
  label, legend { font-weight: 600; }
  .hint { color: var(--muted); font-size: 0.875rem; margin: 0; }
  .req { color: var(--error); margin-left: 0.15rem; }
  input, select, textarea { font: inherit; color: var(--fg); padding: 0.35rem 0.5rem; border: 1px solid #8c959f; border-radius: 6px; background: var(--surface); max-width: 100%; }
  input[type='checkbox'], input[type='radio'] { width: 1.1rem; height: 1.1rem; margin: 0; }
  textarea { min-height: 5rem; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; }
  fieldset { border: 1px solid var(--border); border-radius: 8px; padding: 0.75rem; margin: 0; display: grid; gap: 0.6rem; min-width: 0; }
  .check { display: flex; align-items: center; gap: 0.5rem; font-weight: 400; }
  .inline { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: center; }
  .actions { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; }
  button.danger { border-color: var(--error); color: var(--error); }
  button:disabled { opacity: 0.6; cursor: default; }
  pre { background: var(--bg); border: 1px solid var(--border); border-radius: 6px; padding: 0.75rem; overflow: auto; max-height: 24rem; margin: 0.25rem 0; font-size: 0.875rem; white-space: pre-wrap; word-break: break-word; }
`;
