// Event type patterns: an exact type, or a prefix ending in `*` that matches
// across dots (`document.*` matches `document.ingestion.completed`); a lone
// `*` matches every type.

const TYPE = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;
const PATTERN = /^([A-Za-z0-9_-]+\.)*([A-Za-z0-9_-]*)\*$/;

export function isValidEventType(type: string): boolean {
  return type.length <= 200 && TYPE.test(type);
}

export function isValidTypePattern(pattern: string): boolean {
  return pattern === '*' || isValidEventType(pattern) || (pattern.length <= 200 && PATTERN.test(pattern));
}

export function matchesTypePattern(pattern: string, type: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('*')) return type.startsWith(pattern.slice(0, -1));
  return pattern === type;
}
