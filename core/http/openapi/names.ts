// Names derived from a route: its operationId (camelCase, from the method and
// the path's literal segments) and the names of its unnamed request and
// response schemas. `/api` and the version segment `v1` are left out.
const SKIPPED = new Set(['api', 'v1', 'v2']);

function words(segment: string): string[] {
  return segment.replace(/\.json$/, '').split(/[^A-Za-z0-9]+/).filter(Boolean);
}

export function pascal(parts: string[]): string {
  return parts.flatMap(words).map((word) => word[0].toUpperCase() + word.slice(1)).join('');
}

/** The singular of an English plural noun, for the common endings only. */
export function singular(noun: string): string {
  if (/(ss|us|is)$/.test(noun)) return noun;
  if (/ies$/.test(noun)) return `${noun.slice(0, -3)}y`;
  if (/(ss|us|x|sh|ch)es$/.test(noun)) return noun.slice(0, -2);
  if (/[^s]s$/.test(noun)) return noun.slice(0, -1);
  return noun;
}

interface Segment { literal: boolean; text: string }

function segmentsOf(path: string): Segment[] {
  return path.split('/').filter(Boolean).map((text) => ({ literal: !text.includes('{'), text }))
    .filter((segment) => !(segment.literal && SKIPPED.has(segment.text)));
}

export interface OperationNaming {
  operationId: string;
  /** The resource the operation reads or changes, singular, PascalCase (`AdminTenant`). */
  resource: string;
  kind: 'get' | 'list' | 'create' | 'replace' | 'update' | 'delete' | 'action';
}

/**
 * GET of a path ending in a parameter: get<Resource>; other GETs: list<Path>
 * (or get<Path> when the last word is not a plural); POST: create<Resource>,
 * or <action><Resource> when it ends in a verb after a parameter
 * (`/workflows/{name}/execute` → executeWorkflow); PUT replace, PATCH
 * update, DELETE delete.
 */
export function nameOperation(method: string, path: string): OperationNaming {
  const segments = segmentsOf(path);
  const literals = segments.filter((segment) => segment.literal).map((segment) => segment.text);
  const last = segments.at(-1);
  const endsInParameter = last !== undefined && !last.literal;
  const lastWord = words(literals.at(-1) ?? 'root').at(-1) ?? 'root';
  const plural = singular(lastWord) !== lastWord;
  const withSingularLast = (parts: string[]) => [...parts.slice(0, -1), singular(parts.at(-1) ?? 'root')];
  const resource = pascal(withSingularLast(literals.length > 0 ? literals : ['root']));
  const all = pascal(literals.length > 0 ? literals : ['root']);
  const upper = method.toUpperCase();
  const previous = segments.at(-2);
  const action = !endsInParameter && previous !== undefined && !previous.literal && !plural;
  if (upper === 'GET') {
    if (endsInParameter) return { operationId: `get${resource}`, resource, kind: 'get' };
    return plural ? { operationId: `list${all}`, resource, kind: 'list' } : { operationId: `get${all}`, resource: all, kind: 'get' };
  }
  if (upper === 'POST' && action) {
    const verb = words(literals.at(-1) ?? '');
    const rest = pascal(withSingularLast(literals.slice(0, -1)));
    const name = pascal(verb);
    return { operationId: `${name[0].toLowerCase()}${name.slice(1)}${rest}`, resource: rest, kind: 'action' };
  }
  const verb = ({ POST: 'create', PUT: 'replace', PATCH: 'update', DELETE: 'delete' } as Record<string, OperationNaming['kind']>)[upper] ?? 'action';
  // A PUT, PATCH or DELETE of a path ending in a literal changes that whole thing (`PUT /settings`).
  const noun = endsInParameter || (upper === 'POST' && plural) ? resource : all;
  return { operationId: `${verb === 'action' ? method.toLowerCase() : verb}${noun}`, resource: noun, kind: verb };
}

/** The operationId made unique among `taken`: the path's parameters are added (`By<Param>`), then a counter. */
export function uniqueOperationId(naming: OperationNaming, path: string, taken: Set<string>): string {
  let id = naming.operationId;
  if (taken.has(id)) {
    const params = [...path.matchAll(/\{(\w+)/g)].map((match) => match[1]);
    if (params.length > 0) id = `${id}By${pascal(params)}`;
  }
  for (let n = 2; taken.has(id); n++) id = `${naming.operationId}${n}`;
  taken.add(id);
  return id;
}

/** The name of an unnamed request body schema. */
export function requestName(operationId: string): string {
  return `${pascal([operationId])}Request`;
}

/** The name of an unnamed response schema: the resource for a get, `<Resource>List` for a list, else `<OperationId>Response`. */
export function responseName(naming: OperationNaming, operationId: string, status: number): string {
  const suffix = status === 200 || status === 201 ? '' : String(status);
  if (naming.kind === 'get' && suffix === '') return naming.resource;
  if (naming.kind === 'list' && suffix === '') return `${naming.resource}List`;
  return `${pascal([operationId])}Response${suffix}`;
}
