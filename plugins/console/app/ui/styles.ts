// Styles shared by the console's shadow-DOM parts (sections and ui/): the
// page's tokens (styles/console.css) reach them as inherited custom properties.
import { css } from 'lit';

export const shared = css`
  :host { display: block; color: var(--fg); font: inherit; }
  h2 { font-size: 1.15rem; margin: 1.5rem 0 0.5rem; }
  p { margin: 0.25rem 0 0.75rem; }
  button { font: inherit; padding: 0.4rem 0.9rem; border: 1px solid var(--border); border-radius: 6px; background: var(--surface); color: var(--fg); cursor: pointer; }
  button.primary { background: var(--accent); border-color: var(--accent); color: var(--on-accent); }
  :focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
  .muted { color: var(--muted); }
  .cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(14rem, 1fr)); gap: 1rem; }
  .card { border: 1px solid var(--border); border-radius: 8px; padding: 1rem; background: var(--surface); }
  .card h2 { margin-top: 0; font-size: 1rem; }
  .card h3 { margin: 0; font-size: 0.95rem; font-weight: 600; }
  .figure { font-size: 1.6rem; font-weight: 600; margin: 0.25rem 0; }
  dl { display: grid; grid-template-columns: auto 1fr; gap: 0.25rem 1rem; margin: 0; }
  dt { color: var(--muted); }
  dd { margin: 0; }
`;
