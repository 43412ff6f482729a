// What an import or re-sync changes, compared with the functions a spec
// already has (matched by operation key): created, updated (with the fields
// that changed), unchanged, and removed (an operation gone from the
// document; its function is marked removed, never silently deleted).
import type { DerivedFunction } from '../openapi/model.ts';
import type { FunctionRecord } from '../store/tables.ts';

/** A stored function, as much of it as the comparison reads. */
export type ExistingFunction = Pick<
  FunctionRecord,
  'name' | 'operation_key' | 'operation_id' | 'method' | 'path' | 'summary' | 'description' | 'description_edited' | 'parameters' | 'request' | 'security' | 'status' | 'version'
>;

export type ChangeAction = 'create' | 'update' | 'unchanged' | 'remove';

export interface PlannedChange {
  action: ChangeAction;
  name: string;
  operation: string;
  changed_fields?: string[];
  previous_name?: string;
  derived?: DerivedFunction;
  existing?: ExistingFunction;
}

/** JSON with object keys sorted (jsonb does not keep key order). */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function changedFields(derived: DerivedFunction, existing: ExistingFunction, authChanged: boolean): string[] {
  const changed: string[] = [];
  if (derived.name !== existing.name) changed.push('name');
  if (existing.status === 'removed') changed.push('status');
  if (derived.summary !== existing.summary) changed.push('summary');
  if (!existing.description_edited && derived.description !== existing.description) changed.push('description');
  if (derived.method !== existing.method) changed.push('method');
  if (derived.path !== existing.path) changed.push('path');
  if (derived.operation_id !== existing.operation_id) changed.push('operation_id');
  if (canonical(derived.parameters) !== canonical(existing.parameters)) changed.push('parameters');
  if (canonical(derived.request) !== canonical(existing.request)) changed.push('request');
  if (canonical(derived.security) !== canonical(existing.security)) changed.push('security');
  if (authChanged && existing.status === 'active') changed.push('auth');
  return changed;
}

export function planChanges(derived: DerivedFunction[], existing: ExistingFunction[], authChanged: boolean): PlannedChange[] {
  const byKey = new Map(existing.map((fn) => [fn.operation_key, fn]));
  const plan: PlannedChange[] = [];
  for (const fn of derived) {
    const current = byKey.get(fn.operation_key);
    byKey.delete(fn.operation_key);
    if (!current) {
      plan.push({ action: 'create', name: fn.name, operation: fn.operation_key, derived: fn });
      continue;
    }
    const changed = changedFields(fn, current, authChanged);
    plan.push({
      action: changed.length ? 'update' : 'unchanged',
      name: fn.name,
      operation: fn.operation_key,
      ...(changed.length ? { changed_fields: changed } : {}),
      ...(fn.name !== current.name ? { previous_name: current.name } : {}),
      derived: fn,
      existing: current,
    });
  }
  for (const gone of byKey.values()) {
    if (gone.status === 'removed') continue; // already removed: nothing changes
    plan.push({ action: 'remove', name: gone.name, operation: gone.operation_key, changed_fields: ['status'], existing: gone });
  }
  return plan.sort((a, b) => a.name.localeCompare(b.name));
}

export function summarize(plan: PlannedChange[]) {
  const counts = { create: 0, update: 0, unchanged: 0, remove: 0 };
  for (const change of plan) counts[change.action]++;
  return counts;
}
