// Markdown of an answer as sanitized HTML: `marked` parses, DOMPurify removes
// scripts, handlers and unsafe URLs; every link opens in a new tab without
// handing the host page to the target (`rel="noopener noreferrer"`).
import { Marked } from 'marked';
import DOMPurify from 'dompurify';

const marked = new Marked({ gfm: true, breaks: true, async: false });
const purify = DOMPurify(window);

purify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A' && node.hasAttribute('href')) {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
});

const CONFIG = { ADD_ATTR: ['target'], FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select'], FORBID_ATTR: ['style'] };

/** Sanitized HTML of a (possibly incomplete, still streaming) Markdown text. */
export function renderMarkdown(text: string): string {
  return purify.sanitize(marked.parse(text) as string, CONFIG) as string;
}
