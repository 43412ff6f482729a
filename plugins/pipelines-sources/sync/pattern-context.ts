// What a pattern gets to discover or read a source: its configuration with
// the credentials in place (defaults applied), the guarded fetch, and a
// redactor that keeps credential values out of every message we store or log.
import type { SourcesContext } from '../services/context.ts';
import { splitStored } from '../credentials/inline.ts';
import type { PatternContext } from '../patterns/types.ts';
import { validatedConfig } from '../patterns/source-config.ts';
import { filesStore } from '../store/files.ts';
import type { SourceRow } from '../store/sources.ts';
import { ownerCaller } from './source-owner.ts';

export interface SourceAccess {
  context: PatternContext;
  /** The message with every credential value replaced by [redacted]. */
  redact(message: string): string;
}

export function sourceAccess(context: SourcesContext, tenantId: string, source: SourceRow, credentials: Record<string, string>, signal: AbortSignal): SourceAccess {
  const pattern = context.patterns.get(source.pattern_id);
  const allowPrivateNetworks = context.options.allowPrivateNetworks;
  const secrets = Object.values(credentials).filter((value) => value.length > 0);
  const redact = (message: string) => secrets.reduce((text, secret) => text.split(secret).join('[redacted]'), message);
  const config = validatedConfig(pattern, splitStored(source.source_config).config, credentials);
  return {
    context: {
      tenantId, config, allowPrivateNetworks, fetch: context.core.http.fetch({ allowPrivateNetworks }), signal,
      // Its own tenant transaction: row-level security shows this tenant's files only.
      readFile: (fileId) => context.core.withTenant(tenantId, (trx) => filesStore.content(trx, fileId)),
      callFunction: ownerCaller(context.core, tenantId, source),
    },
    redact,
  };
}

/** An error's message for a run log or a status field: no stack, no credential value. */
export function messageOf(err: unknown, redact: (message: string) => string = (m) => m): string {
  const message = err instanceof Error ? err.message : String(err);
  return redact(message).slice(0, 2000);
}
