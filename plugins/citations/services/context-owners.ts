// Who owns an execution context, by context type: the resolvers the plugins
// owning each type contribute to the `citations.context-owners` extension
// point (chat: `chat_session`). A type contributed twice stops the boot; a
// type nobody answers for has no owner.
import { PluginContractError } from 'agent-platform/sdk';
import type { ContextOwnerResolver } from '../api.ts';

export function createContextOwners() {
  const resolvers = new Map<string, { resolver: ContextOwnerResolver; contributor: string }>();
  return {
    add(resolver: ContextOwnerResolver, contributor: string): void {
      const taken = resolvers.get(resolver.type);
      if (taken) throw new PluginContractError(`citation context type "${resolver.type}" has two owners: plugin "${taken.contributor}" and plugin "${contributor}"`);
      resolvers.set(resolver.type, { resolver, contributor });
    },
    /** The owner key of a context, null when its type has no resolver or the context no owner. */
    async ownerKey(tenantId: string, type: string, id: string): Promise<string | null> {
      return (await resolvers.get(type)?.resolver.ownerKey(tenantId, id)) ?? null;
    },
  };
}

export type ContextOwners = ReturnType<typeof createContextOwners>;
