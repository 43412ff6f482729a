// The pg-boss job of a discovery: the pattern lists the source's streams; the
// result is kept on the workflow (GET /sources/discover/status/{id}) and, when
// asked, applied as refresh-schema. Not retried: a discovery is cheap to ask
// again, and its failure (a wrong host, a refused login) is what the caller
// needs to see.
import type { SourcesContext } from '../services/context.ts';
import type { SourceService } from '../services/sources.ts';
import type { StreamService } from '../services/streams.ts';
import { discoveriesStore } from '../store/runs.ts';
import { sourcesStore } from '../store/sources.ts';
import { messageOf, sourceAccess, type SourceAccess } from './pattern-context.ts';

export const DISCOVER_TASK = 'pipelines.discover';

export interface DiscoverJob {
  tenant_id: string;
  workflow_id: string;
}

export function createDiscoveryRunner(context: SourcesContext, sources: SourceService, streams: StreamService) {
  const { core } = context;
  return async function runDiscovery(job: DiscoverJob, signal: AbortSignal): Promise<void> {
    let access: SourceAccess | undefined;
    try {
      await context.patterns.refresh();
      const started = await core.withTenant(job.tenant_id, async (trx) => {
        const discovery = await discoveriesStore.find(trx, job.workflow_id);
        if (!discovery || discovery.status !== 'queued') return undefined;
        await discoveriesStore.set(trx, job.workflow_id, { status: 'running' });
        const source = (await sourcesStore.find(trx, discovery.source_id))!;
        return { discovery, source, credentials: await sources.storedCredentials(trx, job.tenant_id, source) };
      });
      if (!started) return;
      access = sourceAccess(context, job.tenant_id, started.source, started.credentials, signal);
      const found = await context.patterns.get(started.source.pattern_id).pattern.discover(access.context);
      if (started.discovery.apply) await streams.refreshSchema(job.tenant_id, started.source.id, found);
      await core.withTenant(job.tenant_id, (trx) => discoveriesStore.set(trx, job.workflow_id, { status: 'succeeded', streams: found }));
    } catch (err) {
      const error = messageOf(err, access?.redact);
      await core.withTenant(job.tenant_id, (trx) => discoveriesStore.set(trx, job.workflow_id, { status: 'failed', error }));
    }
  };
}
