// Who a source's function calls act for (plugins/README.md, "Calling functions
// for a person"): the person who created it or last changed its configuration,
// with their roles in the tenant as they are at the call (the user directory),
// never the platform's. A person who may no longer call the function (a role
// lost, the tenant left) fails the call with SOURCE_OWNER_FORBIDDEN, and the
// sync that made it stops for good (sync/runner.ts pauses the schedule).
import { describeActor, forbidden, parseActor, type Actor, type CoreServices } from 'agent-platform/sdk';
import type { SourceRow } from '../store/sources.ts';

export const OWNER_FORBIDDEN = 'SOURCE_OWNER_FORBIDDEN';

/** The refusals of the registry that mean the person may not make the call. */
const REFUSALS = new Set(['ACTOR_NOT_MEMBER', 'FUNCTION_FORBIDDEN']);

/** The source's person: acts_for, else (a source from before it was recorded) its creator. */
export function ownerOf(source: Pick<SourceRow, 'acts_for' | 'created_by'>): Actor | undefined {
  const recorded = parseActor(source.acts_for);
  if (recorded) return recorded;
  if (!source.created_by) return undefined;
  return source.created_by === 'super-admin' ? { kind: 'super_admin' } : { kind: 'user', sub: source.created_by };
}

/** Whether an error is the owner's refusal (the sync stops instead of retrying). */
export function isOwnerRefusal(err: unknown): boolean {
  return (err as { output?: { payload?: { code?: unknown } } })?.output?.payload?.code === OWNER_FORBIDDEN;
}

const refusal = (message: string) => forbidden(`${OWNER_FORBIDDEN}: ${message}`, OWNER_FORBIDDEN);

/** Calls a function for the source's person, with their roles now; 403 SOURCE_OWNER_FORBIDDEN when they may not. */
export function ownerCaller(core: Pick<CoreServices, 'functions' | 'withTenant' | 'logger'>, tenantId: string, source: Pick<SourceRow, 'id' | 'acts_for' | 'created_by'>) {
  return async function callFunction(name: string, args: Record<string, unknown>): Promise<unknown> {
    const owner = ownerOf(source);
    if (!owner) throw refusal('the source has no recorded owner: an editor saves its configuration again to own its calls');
    try {
      const principal = await core.functions.principalFor(tenantId, owner);
      return await core.functions.call(name, args, {
        tenantId, principal, withTenant: core.withTenant,
        logger: core.logger.child({ component: 'pipelines-sources', function: name }),
        executionContext: { type: 'source_sync', id: source.id },
      });
    } catch (err) {
      const code = (err as { output?: { payload?: { code?: unknown } } })?.output?.payload?.code;
      if (typeof code === 'string' && REFUSALS.has(code)) {
        throw refusal(`the source acts for ${describeActor(owner)}, who may not call ${name} now: ${(err as Error).message}`);
      }
      throw err;
    }
  };
}
