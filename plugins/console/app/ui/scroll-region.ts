// scrollRegion(label, content): a wide part (a <console-table> on a narrow
// screen) that scrolls sideways inside a named region the keyboard can
// focus, so its hidden columns are reachable without a pointer. The region
// scrolls, not the table: add `scrollRegionStyles` to the element's styles.
import { css, html, type TemplateResult } from 'lit';

export const scrollRegionStyles = css`
  .scroll-region { overflow-x: auto; max-width: 100%; }
  .scroll-region > console-table { overflow: visible; }
  .scroll-region:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
`;

export function scrollRegion(label: string, content: TemplateResult): TemplateResult {
  return html`<div class="scroll-region" role="region" tabindex="0" aria-label=${label}>${content}</div>`;
}
