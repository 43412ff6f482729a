// What changed from one entity-type version to the next. The API gives each
// version's whole definition; this lists the differences as the section
// shows them (a property added, removed, changed, made required...).
import type { TypeDefinition } from './types.ts';

export type ChangeKind =
  | 'created' | 'name' | 'description' | 'propertyAdded' | 'propertyRemoved' | 'propertyChanged'
  | 'required' | 'optional' | 'keys' | 'relationshipAdded' | 'relationshipRemoved' | 'relationshipChanged' | 'carriers';

export interface Change { kind: ChangeKind; subject?: string }

/** Canonical JSON (keys sorted at every depth), so key order never counts as a change. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

function keyed<T>(items: T[], keyOf: (item: T) => string): Map<string, T> {
  return new Map(items.map((item) => [keyOf(item), item]));
}

/** The differences between `before` (null for the first version) and `after`, in a stable order. */
export function versionChanges(before: TypeDefinition | null, after: TypeDefinition): Change[] {
  if (!before) return [{ kind: 'created' }];
  const changes: Change[] = [];
  if (before.name !== after.name) changes.push({ kind: 'name', subject: after.name });
  if ((before.description ?? '') !== (after.description ?? '')) changes.push({ kind: 'description' });
  const was = before.properties.properties ?? {};
  const now = after.properties.properties ?? {};
  for (const name of Object.keys(now).sort()) {
    if (!(name in was)) changes.push({ kind: 'propertyAdded', subject: name });
    else if (canonical(was[name]) !== canonical(now[name])) changes.push({ kind: 'propertyChanged', subject: name });
  }
  for (const name of Object.keys(was).sort()) if (!(name in now)) changes.push({ kind: 'propertyRemoved', subject: name });
  const wasRequired = new Set(before.properties.required ?? []);
  const nowRequired = new Set(after.properties.required ?? []);
  for (const name of [...nowRequired].sort()) if (!wasRequired.has(name) && name in was) changes.push({ kind: 'required', subject: name });
  for (const name of [...wasRequired].sort()) if (!nowRequired.has(name) && name in now) changes.push({ kind: 'optional', subject: name });
  if (canonical(before.keys) !== canonical(after.keys)) changes.push({ kind: 'keys', subject: after.keys.join(', ') });
  const relBefore = keyed(before.relationships ?? [], (r) => r.name);
  const relAfter = keyed(after.relationships ?? [], (r) => r.name);
  for (const [name, rel] of relAfter) {
    if (!relBefore.has(name)) changes.push({ kind: 'relationshipAdded', subject: name });
    else if (canonical(relBefore.get(name)) !== canonical(rel)) changes.push({ kind: 'relationshipChanged', subject: name });
  }
  for (const name of relBefore.keys()) if (!relAfter.has(name)) changes.push({ kind: 'relationshipRemoved', subject: name });
  if (canonical([...(before.carrier_types ?? [])].sort()) !== canonical([...(after.carrier_types ?? [])].sort())) {
    changes.push({ kind: 'carriers', subject: (after.carrier_types ?? []).join(', ') });
  }
  return changes;
}
