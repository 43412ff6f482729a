// Markdown of an answer as sanitized HTML: `marked` parses, DOMPurify removes
// scripts, handlers and unsafe URLs; every link opens in a new tab without
// handing the host page to the target (`rel="noopener noreferrer"`).
//
// An answer loads nothing from the network: an image (Markdown `![alt](url)`,
// HTML `<img>`, SVG `<image>`) becomes a link to its URL named by its alt text
// (the URL when it has none), or just that text inside a link or for a URL
// that is not http(s); media elements and the attributes that fetch images
// (`background`, `poster`, `srcset`, `src`) are removed. A quoted document
// could otherwise make the visitor's browser call any URL it names.
import { Marked } from 'marked';
import DOMPurify from 'dompurify';

const marked = new Marked({ gfm: true, breaks: true, async: false });
const purify = DOMPurify(window);

const IMAGE_TAGS = new Set(['img', 'image']);
const WEB_URL = /^https?:\/\//i;

/** What stands in for an image: a link after it (sanitized next, as every link) or its text. */
function imageStandIn(node: Element): Node {
  const url = (node.getAttribute('src') ?? node.getAttribute('href') ?? node.getAttribute('xlink:href') ?? '').trim();
  const text = node.getAttribute('alt')?.trim() || url;
  const doc = node.ownerDocument;
  if (!WEB_URL.test(url) || node.closest('a')) return doc.createTextNode(text);
  const link = doc.createElement('a');
  link.setAttribute('href', url);
  link.textContent = text;
  return link;
}

purify.addHook('uponSanitizeElement', (node, data) => {
  // The image itself is then removed (FORBID_TAGS); its stand-in comes after it, so it is sanitized too.
  if (IMAGE_TAGS.has(data.tagName) && node.nodeType === Node.ELEMENT_NODE) (node as Element).after(imageStandIn(node as Element));
});

purify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A' && node.hasAttribute('href')) {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
});

const CONFIG = {
  ADD_ATTR: ['target'],
  FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'img', 'image', 'picture', 'source', 'video', 'audio', 'track', 'svg'],
  FORBID_ATTR: ['style', 'src', 'srcset', 'background', 'poster'],
};

/** Sanitized HTML of a (possibly incomplete, still streaming) Markdown text. */
export function renderMarkdown(text: string): string {
  return purify.sanitize(marked.parse(text) as string, CONFIG) as string;
}
