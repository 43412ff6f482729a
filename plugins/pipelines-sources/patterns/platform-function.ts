// The `platform_function` pattern: a platform function (an imported OpenAPI
// operation, a plugin's function) as a source. The call is made for the
// person the source acts for (its creator, or whoever last changed its
// configuration) with their roles in the tenant at that moment
// (context.callFunction, sync/source-owner.ts): a pipeline editor reaches only
// the functions an editor may call, and a person who lost the role stops the
// source. The configured arguments go in; the records are at `records_path`
// of the result (the result itself when it is an array; one record when it is
// an object). One stream, schema inferred from a first call. A function with
// side effects would repeat them at every sync: pick read-only functions.
import { badRequest } from 'agent-platform/sdk';
import { atPath, inferSchema, pastCursor } from './infer.ts';
import type { JsonSchemaObject, PatternContext, SourcePattern } from './types.ts';

const configSchema: JsonSchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['function'],
  properties: {
    function: { type: 'string', minLength: 1, maxLength: 200, description: 'The function\'s name (GET /api/admin/functions)' },
    arguments: { type: 'object', default: {}, description: 'Its arguments (validated by the function\'s schema at each call)' },
    records_path: { type: 'string', maxLength: 200, description: 'Dot path of the records array in the result' },
    stream_name: { type: 'string', pattern: '^[A-Za-z0-9_]{1,63}$', default: 'records' },
  },
};

export function platformFunctionPattern(): SourcePattern {
  async function records(context: PatternContext): Promise<Record<string, unknown>[]> {
    const name = context.config.function as string;
    const result = await context.callFunction(name, (context.config.arguments ?? {}) as Record<string, unknown>);
    const found = atPath(JSON.parse(JSON.stringify(result ?? null)), context.config.records_path as string | undefined);
    const list = Array.isArray(found) ? found : found && typeof found === 'object' ? [found] : undefined;
    if (!list) throw badRequest(`The result of ${name} has no records at "${(context.config.records_path as string | undefined) ?? ''}"`, 'SOURCE_RECORDS_PATH');
    return list.filter((r): r is Record<string, unknown> => !!r && typeof r === 'object' && !Array.isArray(r));
  }
  return {
    id: 'platform_function',
    name: 'Platform function',
    description: 'The records a platform function returns (an imported OpenAPI operation, a plugin\'s function)',
    configSchema,
    async discover(context) {
      const sample = (await records(context)).slice(0, 500);
      return [{ name: (context.config.stream_name as string | undefined) ?? 'records', namespace: null, schema: inferSchema(sample), supported_sync_modes: ['full_refresh', 'incremental'] }];
    },
    async read(context, stream) {
      let rows = await records(context);
      if (stream.syncMode === 'incremental' && stream.cursorField) {
        rows = rows.filter((r) => pastCursor(r[stream.cursorField!], stream.cursor, stream.inclusiveCursor));
      }
      return { source: { kind: 'records', batches: [rows] }, close: async () => {} };
    },
  };
}
