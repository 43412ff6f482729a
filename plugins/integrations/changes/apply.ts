// Writes a plan (plan.ts) inside the caller's transaction and returns the
// definition events that announce it, and checks the names a plan introduces
// against the tenant's other functions.
import { domainError, type EventInput, type TenantTransaction } from 'agent-platform/sdk';
import { definitionEvent } from '../announce/events.ts';
import type { PlannedChange } from './plan.ts';
import { functionsStore } from '../store/functions.ts';

export interface Conflict {
  name: string;
  /** `platform`, or the name of the spec that holds the function. */
  held_by: string;
}

export async function applyPlan(
  trx: TenantTransaction, tenantId: string, spec: { id: string; name: string }, plan: PlannedChange[],
): Promise<EventInput[]> {
  const events: EventInput[] = [];
  const about = (change: PlannedChange) => ({ spec_id: spec.id, spec_name: spec.name, operation: change.operation });
  const rewritten = plan.filter((c) => c.action === 'update' && c.changed_fields!.some((f) => f !== 'auth'));
  const authOnly = plan.filter((c) => c.action === 'update' && c.changed_fields!.every((f) => f === 'auth'));
  const removed = plan.filter((c) => c.action === 'remove');
  const created = plan.filter((c) => c.action === 'create');

  for (const change of rewritten) {
    const row = await functionsStore.update(trx, spec.id, change.derived!);
    events.push(definitionEvent('definition.updated', {
      name: row.name, version: row.version, ...about(change), changed_fields: change.changed_fields, status: 'active',
      ...(change.previous_name ? { previous_name: change.previous_name } : {}),
    }));
  }
  const bumped = await functionsStore.bump(trx, spec.id, authOnly.map((c) => c.operation));
  const bumpedVersion = new Map(bumped.map((row) => [row.name, row.version]));
  for (const change of authOnly) {
    events.push(definitionEvent('definition.updated', {
      name: change.name, version: bumpedVersion.get(change.name), ...about(change), changed_fields: ['auth'], status: 'active',
    }));
  }
  const marked = await functionsStore.markRemoved(trx, spec.id, removed.map((c) => c.operation));
  const markedVersion = new Map(marked.map((row) => [row.name, row.version]));
  for (const change of removed) {
    events.push(definitionEvent('definition.updated', {
      name: change.name, version: markedVersion.get(change.name), ...about(change), changed_fields: ['status'], status: 'removed',
    }));
  }
  await functionsStore.insertMany(trx, tenantId, spec.id, created.map((c) => c.derived!));
  for (const change of created) {
    events.push(definitionEvent('definition.created', { name: change.name, version: 1, ...about(change) }));
  }
  return events;
}

/** Names the plan introduces (new functions, renames) that a platform function or another spec's function holds. */
export async function conflictsOf(
  trx: TenantTransaction, platform: Set<string>, plan: PlannedChange[], specId: string | undefined,
): Promise<Conflict[]> {
  const introduced = plan.filter((c) => c.action === 'create' || (c.action === 'update' && c.previous_name)).map((c) => c.name);
  if (introduced.length === 0) return [];
  const conflicts: Conflict[] = introduced.filter((name) => platform.has(name)).map((name) => ({ name, held_by: 'platform' }));
  for (const row of await functionsStore.takenElsewhere(trx, introduced, specId)) conflicts.push({ name: row.name, held_by: row.source });
  return conflicts.sort((a, b) => a.name.localeCompare(b.name));
}

export function conflictError(conflicts: Conflict[]) {
  const shown = conflicts.slice(0, 10).map((c) => `${c.name} (${c.held_by})`).join(', ');
  const error = domainError(409, `Function names already taken: ${shown}${conflicts.length > 10 ? ` and ${conflicts.length - 10} more` : ''}; use another prefix, function_names or a filter`, 'FUNCTION_NAME_CONFLICT');
  (error.output.payload as Record<string, unknown>).conflicts = conflicts;
  return error;
}
