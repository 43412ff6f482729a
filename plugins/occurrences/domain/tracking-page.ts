// The tracking page's HTML: server-rendered, every value escaped, no script;
// its one inline stylesheet is allowed by its hash in the Content-Security-Policy
// (TRACKING_HEADERS). The 404 page is the same for an unknown tenant, an
// unknown reference and another tenant's reference.
import { createHash } from 'node:crypto';
import type { TrackingView } from '../services/tracking.ts';
import { WORDS, type TrackingLang } from './tracking-locales.ts';

const STYLE = [
  'body{font-family:system-ui,sans-serif;max-width:42rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a;background:#fff;line-height:1.5}',
  'h1{font-size:1.6rem}h2{font-size:1.2rem;margin-top:2rem}dt{font-weight:600}dd{margin:0 0 .75rem}',
  'ol,ul{padding-left:1.25rem}li{margin-bottom:.5rem}.state{font-weight:600}.body{white-space:pre-wrap}time{color:#444}',
].join('');

const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;

/** The security headers of every tracking answer. */
export const TRACKING_HEADERS: Record<string, string> = {
  'content-security-policy': `default-src 'none'; style-src ${STYLE_HASH}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  vary: 'Accept-Language',
};

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

function when(date: Date, lang: TrackingLang): string {
  const text = new Intl.DateTimeFormat(lang === 'pt' ? 'pt-PT' : 'en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(date);
  return `<time datetime="${date.toISOString()}">${escapeHtml(text)} UTC</time>`;
}

function document(lang: TrackingLang, title: string, main: string): string {
  return `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><main>${main}</main></body></html>
`;
}

export function trackingPage(view: TrackingView, lang: TrackingLang): string {
  const w = WORDS[lang];
  const field = (label: string, value: string | null) => (value ? `<dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd>` : '');
  const history = view.history.map((entry) => `<li><span class="state">${escapeHtml(entry.state)}</span> · ${when(entry.at, lang)}</li>`).join('');
  const messages = view.messages.length === 0
    ? `<p>${escapeHtml(w.noMessages)}</p>`
    : `<ul>${view.messages.map((m) => `<li><article>${m.subject ? `<h3>${escapeHtml(m.subject)}</h3>` : ''}<p class="body">${escapeHtml(m.body)}</p>${when(m.at, lang)}</article></li>`).join('')}</ul>`;
  return document(lang, w.title(view.reference), `<h1>${escapeHtml(view.title)}</h1>
<dl>${field(w.reference, view.reference)}${field(w.type, view.type_name)}${field(w.description, view.description)}${field(w.address, view.address)}<dt>${escapeHtml(w.state)}</dt><dd class="state">${escapeHtml(view.state.label)}</dd><dt>${escapeHtml(w.created)}</dt><dd>${when(view.created_at, lang)}</dd></dl>
<section aria-labelledby="history"><h2 id="history">${escapeHtml(w.history)}</h2><ol>${history}</ol></section>
<section aria-labelledby="messages"><h2 id="messages">${escapeHtml(w.messages)}</h2>${messages}</section>`);
}

export function notFoundPage(lang: TrackingLang): string {
  const w = WORDS[lang];
  return document(lang, w.notFoundTitle, `<h1>${escapeHtml(w.notFoundTitle)}</h1><p>${escapeHtml(w.notFound)}</p>`);
}
