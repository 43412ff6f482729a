// What the console plugin offers other plugins: the `console.usage` extension
// point. A plugin that records something a tenant's usage is counted in
// contributes a counter; the Overview shows each one's count for the week
// (`GET /api/admin/usage`). Other plugins import only these types.

/** One usage counter: rows of the tenant created since `since`. */
export interface UsageCounter {
  /** The key in the usage answer: `documents`, `chat_sessions`, `occurrences`. */
  key: string;
  count(tenantId: string, since: Date): Promise<number>;
}

declare module 'agent-platform/sdk' {
  interface ExtensionPoints {
    /** A usage counter; a key contributed twice stops the boot. */
    'console.usage': UsageCounter;
  }
}
