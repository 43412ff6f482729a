// REST routes describing the registered hydration targets (tenant admins:
// config schemas may list the tenant's own records).
import { badRequest, tenantOf, type ServerRoute } from 'agent-platform/sdk';
import type { TargetsService } from '../services/targets.ts';
import * as s from '../schemas.ts';

const admin = { tenant: 'required', role: 'admin' } as const;
const tags = ['api', 'forms'];
const base = '/api/admin/forms/targets';

function configFrom(text: string | undefined): Record<string, unknown> {
  if (text === undefined || text === '') return {};
  try {
    const parsed = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed;
  } catch {
    // reported below
  }
  throw badRequest('config must be a JSON object', 'VALIDATION_FAILED');
}

export function targetRoutes(targets: TargetsService): ServerRoute[] {
  const model = (params: object) => (params as { model: string }).model;
  return [
    {
      method: 'GET', path: base,
      options: {
        auth: 'bearer', tags, description: 'The registered hydration targets: model, label, description, config schema',
        plugins: { platform: admin }, response: { schema: s.targetList },
      },
      handler: async (request) => ({ items: await targets.list(tenantOf(request)) }),
    },
    {
      method: 'GET', path: `${base}/{model}/fields`,
      options: {
        auth: 'bearer', tags, description: 'The target\'s fields for a config (`config`, JSON): key, label, field_type, category, required, help_text',
        plugins: { platform: admin }, validate: { params: s.modelParams, query: s.fieldsQuery }, response: { schema: s.fieldList },
      },
      handler: async (request) => ({
        items: await targets.fields(tenantOf(request), model(request.params), configFrom((request.query as { config?: string }).config)),
      }),
    },
    {
      method: 'POST', path: `${base}/{model}/suggestions`,
      options: {
        auth: 'bearer', tags, description: 'Bindings proposed for a form version: the target\'s own suggestions, else its fields matched to form fields by key and label',
        plugins: { platform: admin }, validate: { params: s.modelParams, payload: s.suggestionsBody }, response: { schema: s.bindingList },
      },
      handler: async (request) => ({ items: await targets.suggestions(tenantOf(request), model(request.params), request.payload as never) }),
    },
    {
      method: 'GET', path: `${base}/{model}/standard-mappings`,
      options: {
        auth: 'bearer', tags, description: 'The target\'s standard mappings: fields filled from standard form paths without a binding',
        plugins: { platform: admin }, validate: { params: s.modelParams }, response: { schema: s.standardMappings },
      },
      handler: (request) => ({ items: targets.standardMappings(model(request.params)) }),
    },
  ];
}
