// The `platform_function` pattern: any platform function the tenant can call
// (an imported OpenAPI operation, a plugin's function) as a source. The call
// runs as the tenant (principal: the pipelines service), with the configured
// arguments; its records are at `records_path` of the result (the result
// itself when it is an array; one record when it is an object). One stream,
// schema inferred from a first call. Only editors configure sources, and a
// function with side effects would repeat them at every sync: pick read-only
// functions (documented).
import { badRequest, type CoreServices } from 'agent-platform/sdk';
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

export function platformFunctionPattern(core: CoreServices): SourcePattern {
  async function records(context: PatternContext): Promise<Record<string, unknown>[]> {
    const name = context.config.function as string;
    const result = await core.functions.call(name, (context.config.arguments ?? {}) as Record<string, unknown>, {
      tenantId: context.tenantId, principal: { kind: 'service', sub: 'pipelines' }, withTenant: core.withTenant,
      logger: core.logger.child({ component: 'pipelines-sources', function: name }),
      executionContext: { type: 'source_sync', id: name },
    });
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
