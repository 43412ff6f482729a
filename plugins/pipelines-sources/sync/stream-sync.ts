// One stream of a sync run: read from the pattern, write one snapshot of its
// dataset through the lakehouse, and in that same transaction commit the
// stream's cursor, the run's per-stream row and counters and a log line. A
// crash before the commit leaves the cursor where it was (the next attempt
// reads the same rows again); after it, the next attempt skips the stream.
import { badRequest } from 'agent-platform/sdk';
import type { SourcesContext } from '../services/context.ts';
import { logsStore, runStreamsStore, runsStore } from '../store/runs.ts';
import type { SourceRow } from '../store/sources.ts';
import { streamsStore, type StreamRow } from '../store/streams.ts';
import type { SourceAccess } from './pattern-context.ts';

export async function syncStream(context: SourcesContext, tenantId: string, runId: string, source: SourceRow, stream: StreamRow, access: SourceAccess): Promise<void> {
  const lake = context.lake();
  const pattern = context.patterns.get(source.pattern_id).pattern;
  const columns = lake.columnsOfSchema(stream.schema);
  if (columns.length === 0) throw badRequest(`The stream ${stream.name} has no properties in its schema: refresh its schema first`, 'STREAM_SCHEMA_EMPTY');
  const dataset = await lake.ensureDataset(tenantId, {
    datasetId: stream.destination, columns, primaryKey: stream.primary_key,
    producer: { kind: 'source_stream', id: stream.id, name: `${source.name}.${stream.name}` },
  });
  // The types the dataset's columns have (a property whose type changed was widened to text): what a pattern sends.
  const typeOf = new Map(dataset.columns.map((column) => [column.name, column.type]));
  const incremental = stream.sync_mode === 'incremental';
  const cursor = incremental ? (stream.state.cursor ?? null) : null;
  const reader = await pattern.read(access.context, {
    name: stream.name, namespace: stream.namespace, columns: columns.map((c) => ({ name: c.name, type: typeOf.get(c.name) ?? c.type })), syncMode: stream.sync_mode, cursorField: stream.cursor_field, primaryKey: stream.primary_key, cursor,
    inclusiveCursor: stream.write_mode === 'append_dedup',
  });
  try {
    await lake.write(tenantId, stream.destination, {
      mode: stream.write_mode, source: reader.source, primaryKey: stream.primary_key, cursorField: stream.cursor_field, uniqueKeys: reader.uniqueKeys,
      summary: { sync_run_id: runId, source_id: source.id, stream: stream.name },
    }, async (trx, result) => {
      const cursorAfter = incremental ? (result.cursorMax ?? cursor) : result.cursorMax;
      await streamsStore.setState(trx, stream.id, { ...stream.state, cursor: cursorAfter, last_run_id: runId, last_snapshot_id: result.snapshotId });
      await runStreamsStore.succeeded(trx, runId, stream.id, {
        rows_read: result.rowsStaged, rows_added: result.rowsAdded, rows_removed: result.rowsRemoved, type_errors: result.typeErrors,
        snapshot_id: result.snapshotId, snapshot_created: result.created, cursor_after: cursorAfter,
      });
      await runsStore.addCounts(trx, runId, { rows_read: result.rowsStaged, rows_added: result.rowsAdded, rows_removed: result.rowsRemoved });
      const snapshot = result.created ? `snapshot ${result.snapshotId}` : 'no change, no new snapshot';
      await logsStore.add(trx, tenantId, runId, 'info',
        `stream ${stream.name}: read ${result.rowsStaged} row(s), added ${result.rowsAdded}, removed ${result.rowsRemoved}; ${snapshot}` +
        (result.typeErrors ? `; ${result.typeErrors} value(s) did not fit their column and were stored as null` : ''));
    });
  } finally {
    await reader.close();
  }
}
