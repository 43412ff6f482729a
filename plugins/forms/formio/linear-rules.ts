// Form.io validation rules that would run a regular expression on V8's
// backtracking engine, replaced by linear-time ones. A form's `validate.pattern`
// is written by a tenant, and Form.io checks it with `new RegExp`; its email
// and URL checks are fixed expressions, but the URL one nests quantifiers and
// is fed by anonymous submitters. Here: the tenant's pattern runs on RE2
// (compileLinear, anchored as Form.io anchors it: ^pattern$), the email check
// is Form.io's own expression on RE2 (it has no lookaround), and the URL check
// is the WHATWG URL parser, which is linear. Error keys are Form.io's, so its
// messages (and a form's custom `errors`) apply unchanged.
import { FieldError, type ProcessorInfo } from '@formio/core';
import { compileLinear, type LinearRegExp } from 'agent-platform/sdk';

type RuleContext = Parameters<NonNullable<ProcessorInfo<any, any>['processSync']>>[0];
type Rule = ProcessorInfo<any, FieldError | null>;

const compiled = new Map<string, LinearRegExp>();
const MAX_CACHED = 1000;

/** The tenant's pattern as Form.io applies it (^pattern$), compiled for RE2; throws when RE2 cannot run it. */
export function compilePattern(pattern: string): LinearRegExp {
  let regex = compiled.get(pattern);
  if (!regex) {
    regex = compileLinear(`^${pattern}$`);
    if (compiled.size >= MAX_CACHED) compiled.clear();
    compiled.set(pattern, regex);
  }
  return regex;
}

const patternOf = (context: RuleContext): string | undefined => {
  const pattern = context.component?.validate?.pattern;
  return typeof pattern === 'string' && pattern !== '' ? pattern : undefined;
};

const patternRule: Rule = {
  name: 'validateRegexPattern',
  shouldProcess: (context) => Boolean(patternOf(context)) && typeof context.value === 'string' && context.value !== '',
  processSync(context) {
    const pattern = patternOf(context);
    if (!pattern || typeof context.value !== 'string' || context.value === '') return null;
    if (compilePattern(pattern).test(context.value)) return null;
    const message = context.component.validate?.patternMessage || 'pattern';
    return new FieldError(message, { ...context, regex: pattern, pattern, setting: pattern } as never, 'pattern');
  },
};

// Form.io's expression (validateEmail.js), unchanged: RE2 runs it as written.
const EMAIL = compileLinear(
  '^(([^<>()[\\]\\\\.,;:\\s@"]+(\\.[^<>()[\\]\\\\.,;:\\s@"]+)*)|(".+"))@((\\[[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}])|(([a-zA-Z\\-0-9]+\\.)+[a-zA-Z]{2,}))$',
);

const emailRule: Rule = {
  name: 'validateEmail',
  shouldProcess: (context) => context.component?.type === 'email' && Boolean(context.value),
  processSync(context) {
    if (context.component?.type !== 'email' || !context.value) return null;
    return typeof context.value === 'string' && !EMAIL.test(context.value) ? new FieldError('invalid_email', context as never, 'email') : null;
  },
};

const URL_PROTOCOLS = new Set(['http:', 'https:', 'ftp:']);
const HOST_LABELS = compileLinear('^[^.\\s]+(\\.[^.\\s]+)*$');

/** What Form.io's URL check accepts, without its expression: http(s)/ftp, with or without the scheme, a host, not an email address. */
function isUrl(value: string): boolean {
  if (value.length > 4096 || /\s/.test(value) || EMAIL.test(value)) return false;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value.replace(/^\/\//, '')}`;
  let parsed: URL;
  try {
    parsed = new URL(withScheme);
  } catch {
    return false;
  }
  if (!URL_PROTOCOLS.has(parsed.protocol) || !parsed.hostname || !HOST_LABELS.test(parsed.hostname)) return false;
  // Without a scheme Form.io wants a dotted name (a TLD); with one, localhost-like hosts pass.
  return withScheme === value || parsed.hostname.includes('.');
}

const urlRule: Rule = {
  name: 'validateUrl',
  shouldProcess: (context) => context.component?.type === 'url' && Boolean(context.value)
    && !(context.component.multiple && Array.isArray(context.value) && context.value.length === 0),
  processSync(context) {
    if (context.component?.type !== 'url' || !context.value) return null;
    return typeof context.value === 'string' && isUrl(context.value) ? null : new FieldError('invalid_url', context as never, 'url');
  },
};

/** The rules replaced, by Form.io's rule name. */
export const LINEAR_RULES: Rule[] = [patternRule, emailRule, urlRule];

for (const rule of LINEAR_RULES) {
  const sync = rule.processSync!;
  rule.process = async (context) => sync(context);
}
