// YAML to JSON: unquoted dates and datetimes become
// ISO 8601 strings (a date stays a date: 2024-01-05; a datetime becomes
// 2024-01-05T10:00:00.000Z), other JSON scalars keep their types, and what
// JSON cannot carry (tags such as !!binary, !!set, !!omap or custom ones,
// NaN and infinities, non-string keys, aliases that make a cycle) is refused.
// Aliases are sized for the whole request before any value is built
// (yaml-aliases.ts). Every message is sanitized: it names the document, the
// key path and the kind of problem, never a value (the documents carry
// credentials).
// Runs in the YAML reader's worker thread (yaml-reader.ts): no SDK here.
import YAML, { isAlias, isMap, isScalar, isSeq, type Alias, type Document, type Node } from 'yaml';
import { aliasBudget, aliasTargets, spendAliases, type AliasProblem, type Path } from './yaml-aliases.ts';

const CORE_TAGS = new Set(['str', 'int', 'float', 'bool', 'null', 'map', 'seq'].map((name) => `tag:yaml.org,2002:${name}`));
const KNOWN_TAGS = new Set(['binary', 'set', 'omap', 'pairs', 'merge']);
const DATE_ONLY = /^(\d{4})-(\d\d?)-(\d\d?)$/;
// YAML 1.1's timestamp (https://yaml.org/type/timestamp.html), recognized here rather than by the library's
// optional tag, whose resolution other users of the library in the process may change.
const DATE_TIME = /^(\d{4})-(\d\d?)-(\d\d?)(?:[Tt]|[ \t]+)(\d\d?):(\d\d):(\d\d)(\.\d+)?(?:[ \t]*(Z|[-+]\d\d?(?::\d\d)?))?$/;
const INVALID_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const MAX_DEPTH = 64;

/** A refusal of the YAML body: a 400 with its code, the message already sanitized. */
export class YamlRefusal extends Error {
  readonly code: string;
  constructor(message: string, code: string) {
    super(message);
    this.code = code;
  }
}

function refuse(message: string): never {
  throw new YamlRefusal(message, 'APPLY_YAML_INVALID');
}

/** A key path fit for a message: keys that look like identifiers, others as `?` (a key could be anything). */
function showPath(path: (string | number)[]): string {
  return path.map((part) => (typeof part === 'number' ? `[${part}]` : /^[A-Za-z0-9_-]{1,64}$/.test(part) ? `.${part}` : '.?')).join('').replace(/^\./, '');
}

function describeTag(tag: string): string {
  const short = tag.replace('tag:yaml.org,2002:', '');
  return KNOWN_TAGS.has(short) ? `!!${short}` : 'a custom tag';
}

/** An unquoted date or datetime as an ISO 8601 string (a datetime in UTC, without a zone: UTC); else undefined. */
function isoTimestamp(text: string): string | undefined {
  const date = DATE_ONLY.exec(text);
  if (date) {
    const value = new Date(Date.UTC(Number(date[1]), Number(date[2]) - 1, Number(date[3])));
    if (Number.isNaN(value.getTime())) refuse('A YAML date is not a valid date');
    return value.toISOString().slice(0, 10);
  }
  const time = DATE_TIME.exec(text);
  if (!time) return undefined;
  const [, y, mo, d, h, mi, sec, fraction, zone] = time;
  const millis = fraction ? Math.round(Number(fraction) * 1000) : 0;
  let utc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(sec), millis);
  if (zone && zone !== 'Z') {
    const [hours, minutes = '0'] = zone.slice(1).split(':');
    utc -= (zone[0] === '-' ? -1 : 1) * (Number(hours) * 60 + Number(minutes)) * 60_000;
  }
  if (Number.isNaN(utc)) refuse('A YAML datetime is not a valid date');
  return new Date(utc).toISOString();
}

/** Refuses what spendAliases found: a cycle and depth as invalid YAML, the budget as too large. */
function aliasProblem(where: string, limit: number) {
  return (problem: AliasProblem, path: Path): never => {
    const at = `${where}${path.length ? ` at ${showPath(path)}` : ''}`;
    if (problem === 'cycle') refuse(`${at}: an alias makes a cycle, which JSON cannot represent`);
    if (problem === 'deep') refuse(`${where} is nested deeper than ${MAX_DEPTH} levels`);
    throw new YamlRefusal(`${at}: the aliases of this request stand for more than ${limit} values (all documents together)`, 'APPLY_TOO_LARGE');
  };
}

/** The document as JSON; its aliases were sized and found acyclic by spendAliases. */
function convertDocument(doc: Document, targets: Map<Alias, Node | undefined>, where: string): unknown {
  function walk(node: unknown, path: (string | number)[]): unknown {
    const at = () => `${where}${path.length ? ` at ${showPath(path)}` : ''}`;
    if (path.length > MAX_DEPTH) refuse(`${where} is nested deeper than ${MAX_DEPTH} levels`);
    if (node === null || node === undefined) return null;
    if (isAlias(node)) {
      const target = targets.get(node);
      if (!target) refuse(`${at()}: an alias names no anchor`);
      return walk(target, path);
    }
    const tag = (node as { tag?: string }).tag;
    if (tag !== undefined && !CORE_TAGS.has(tag)) refuse(`${at()}: ${describeTag(tag)} is not representable as JSON`);
    if (isScalar(node)) {
      const value = node.value;
      if (value === null || typeof value === 'boolean') return value;
      if (typeof value === 'string') {
        if (INVALID_TEXT.test(value)) refuse(`${at()}: a NUL character or invalid Unicode text`);
        return (node.type === 'PLAIN' && tag === undefined && isoTimestamp(value.trim())) || value;
      }
      if (typeof value === 'number') {
        if (!Number.isFinite(value)) refuse(`${at()}: NaN and infinities are not representable as JSON`);
        return value;
      }
      if (value instanceof Date && typeof node.source === 'string') return isoTimestamp(node.source.trim()) ?? refuse(`${at()}: a date not representable as JSON`);
      refuse(`${at()}: a value not representable as JSON`);
    }
    if (isSeq(node)) return node.items.map((item, index) => walk(item, [...path, index]));
    if (isMap(node)) {
      const out: Record<string, unknown> = {};
      for (const pair of node.items) {
        const keyNode = isAlias(pair.key) ? targets.get(pair.key) : pair.key;
        const key = isScalar(keyNode) ? keyNode.value : undefined;
        if (typeof key !== 'string') refuse(`${at()}: a non-string key (JSON keys are strings)`);
        if (INVALID_TEXT.test(key)) refuse(`${at()}: a key with a NUL character or invalid Unicode text`);
        if (Object.hasOwn(out, key)) refuse(`${at()}: a key appears twice`);
        // Defined, not assigned: a "__proto__" key is an ordinary key, as JSON.parse makes it.
        Object.defineProperty(out, key, { value: walk(pair.value, [...path, key]), enumerable: true, writable: true, configurable: true });
      }
      return out;
    }
    return refuse(`${at()}: a value not representable as JSON`);
  }

  return walk(doc.contents, []);
}

/** The documents of a YAML stream as JSON values (empty documents are skipped). */
export function yamlToJson(text: string, maxDocuments: number): unknown[] {
  // Duplicate keys are refused by the conversion: the library's own check compares every key with every other.
  const docs = YAML.parseAllDocuments(text, { schema: 'core', uniqueKeys: false, prettyErrors: false });
  const list = Array.isArray(docs) ? docs : [];
  if (list.length > maxDocuments) refuse(`The YAML stream holds more than ${maxDocuments} documents (APPLY_MAX_DOCUMENTS)`);
  const where = (index: number) => `YAML document ${index + 1}`;
  list.forEach((doc, index) => {
    const problem = doc.errors[0] ?? doc.warnings[0];
    if (problem) {
      // The library's own message quotes the source: only its code and position leave here.
      const position = problem.linePos?.[0];
      refuse(`${where(index)}: YAML ${doc.errors.length ? 'syntax error' : 'problem'} ${problem.code}${position ? ` at line ${position.line}, column ${position.col}` : ''}`);
    }
  });
  // Every document is sized, against one budget, before any value is built.
  const budget = aliasBudget();
  const targets = list.map((doc, index) => {
    const found = aliasTargets(doc);
    if (found.size) spendAliases(doc, found, budget, MAX_DEPTH, aliasProblem(where(index), budget.limit));
    return found;
  });
  const values: unknown[] = [];
  list.forEach((doc, index) => {
    if (doc.contents !== null) values.push(convertDocument(doc, targets[index], where(index)));
  });
  return values;
}
