// Form.io's templates adapted to the console page: their inline `style`
// attributes would be refused by the page's `style-src 'self'`, so they are
// renamed in the markup (data-console-style) and applied through the CSSOM
// (allowed by CSP) as the elements arrive; and two builder templates are
// made accessible (its sidebar claims role=tablist without tabs; its group
// titles are h5 below the page's h3).
const STYLE = /\sstyle="([^"]*)"/g;
const FIXES: Record<string, (html: string) => string> = {
  builderSidebar: (html) => html.replace(/\srole="tablist"/, ''),
  builderSidebarGroup: (html) => html.replace(/<h5(\s|>)/g, '<h4$1').replace(/<\/h5>/g, '</h4>'),
};
const WRAPPED = Symbol('console markup');

type Template = { form?: ((ctx: unknown) => unknown) & { [WRAPPED]?: boolean } };

/** Wraps the current templates of `formio` (once). */
export function adaptTemplates(formio: unknown): void {
  const templates = (formio as { Templates: { current: Record<string, Template> } }).Templates.current;
  for (const [name, template] of Object.entries(templates)) {
    const original = template?.form;
    if (typeof original !== 'function' || original[WRAPPED]) continue;
    const fix = FIXES[name];
    const wrapped = Object.assign((ctx: unknown) => {
      const html = String(original(ctx)).replace(STYLE, ' data-console-style="$1"');
      return fix ? fix(html) : html;
    }, { [WRAPPED]: true });
    template.form = wrapped;
  }
}

function apply(node: Node): void {
  if (!(node instanceof Element)) return;
  const elements = node.matches('[data-console-style]') ? [node, ...node.querySelectorAll('[data-console-style]')] : [...node.querySelectorAll('[data-console-style]')];
  for (const element of elements as HTMLElement[]) {
    element.style.cssText = element.dataset.consoleStyle ?? '';
    delete element.dataset.consoleStyle;
  }
}

/** Applies renamed styles under `root` as they arrive, until the returned function is called. */
export function applyStyles(root: Node): () => void {
  apply(root);
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === 'attributes') apply(record.target);
      for (const node of record.addedNodes) apply(node);
    }
  });
  observer.observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-console-style'] });
  return () => observer.disconnect();
}
