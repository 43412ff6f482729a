// Form.io's stylesheet and Bootstrap 5 (the markup Form.io renders expects
// both), loaded with the Form.io chunks only. Form.io renders in the page's
// light DOM (its builder finds its drop zones through document lookups and
// puts its edit dialog in document.body), so the sheets are adopted by the
// document while a Form.io view is shown. Bootstrap's rules are scoped under
// the Form.io container and the builder's dialog, so the console's own page
// is left as it is; Form.io's own rules name its classes (and `dialog`,
// which the console uses only inside shadow roots) and stay as they are. A
// constructable sheet needs no inline <style>, so the page's `style-src
// 'self'` holds.
import formioCss from '@formio/js/dist/formio.builder.min.css';
import bootstrapCss from 'bootstrap/dist/css/bootstrap.min.css';

/** The class of the element Form.io renders into. */
export const FORMIO_CONTAINER = 'console-formio';
const SCOPE = `:is(.${FORMIO_CONTAINER}, .formio-dialog)`;

let sheet: CSSStyleSheet | null = null;
let users = 0;

function scoped(text: string): string {
  // Nested under the scope: `:root` custom properties become the scope's own.
  return `${SCOPE} { ${text.replace(/@charset "UTF-8";/g, '').replace(/:root/g, '&')} }`;
}

/** Adopts the sheets on the document; the returned function gives them back (the last user removes them). */
export function adoptFormioStyles(): () => void {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(`${scoped(bootstrapCss)}\n${formioCss}`);
  }
  if (users++ === 0) document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--users === 0) document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== sheet);
  };
}
