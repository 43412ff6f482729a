// REST routes of use cases and their field bindings (tenant admins).
import { tenantOf, type ServerRoute } from 'agent-platform/sdk';
import type { UseCasesService } from '../services/use-cases.ts';
import * as s from '../schemas.ts';

const admin = { tenant: 'required', role: 'admin' } as const;
const tags = ['api', 'forms'];
const base = '/api/admin/forms/use-cases';

export function useCaseRoutes(useCases: UseCasesService): ServerRoute[] {
  return [
    {
      method: 'GET', path: base,
      options: {
        auth: 'bearer', tags, description: 'List use cases, newest first',
        plugins: { platform: admin }, validate: { query: s.paging }, response: { schema: s.listOf(s.useCase, 'UseCaseList') },
      },
      handler: async (request) => {
        const { skip, limit } = request.query as { skip: number; limit: number };
        return { ...(await useCases.list(tenantOf(request), skip, limit)), skip, limit };
      },
    },
    {
      method: 'POST', path: base,
      options: {
        auth: 'bearer', tags, description: 'Create a use case: a form version (a number or "latest") turned into objects of a registered target',
        notes: '400 TARGET_NOT_FOUND, FORM_VERSION_NOT_FOUND, TARGET_CONFIG_INVALID (naming each config key at fault), BINDINGS_INVALID (naming each binding at fault), REQUIRED_FIELD_UNBOUND (`fields`: the required target fields neither bound nor covered by a standard mapping). Nothing is saved on a refusal.',
        plugins: { platform: admin }, validate: { payload: s.createUseCase }, response: { schema: s.useCase },
      },
      handler: async (request, h) => {
        const { bindings, ...input } = request.payload as { bindings?: never[] };
        return h.response(await useCases.create(tenantOf(request), input as never, bindings)).code(201);
      },
    },
    {
      method: 'GET', path: `${base}/{id}`,
      options: {
        auth: 'bearer', tags, description: 'Read a use case', plugins: { platform: admin }, validate: { params: s.idParams }, response: { schema: s.useCase },
      },
      handler: (request) => useCases.get(tenantOf(request), request.params.id as string),
    },
    {
      method: 'PUT', path: `${base}/{id}`,
      options: {
        auth: 'bearer', tags, description: 'Change a use case (fields left out are kept); its saved bindings, or the `bindings` given, must fit it',
        notes: '400 BINDINGS_INVALID (naming each binding at fault), REQUIRED_FIELD_UNBOUND (`fields`: the required target fields neither bound nor covered by a standard mapping), and the checks of a creation. Nothing is saved on a refusal.',
        plugins: { platform: admin }, validate: { params: s.idParams, payload: s.updateUseCase }, response: { schema: s.useCase },
      },
      handler: (request) => {
        const { bindings, ...input } = request.payload as { bindings?: never[] };
        return useCases.update(tenantOf(request), request.params.id as string, input, bindings);
      },
    },
    {
      method: 'DELETE', path: `${base}/{id}`,
      options: {
        auth: 'bearer', tags, description: 'Archive a use case: it takes no more submissions; its submissions stay',
        plugins: { platform: admin }, validate: { params: s.idParams },
      },
      handler: async (request, h) => {
        await useCases.remove(tenantOf(request), request.params.id as string);
        return h.response().code(204);
      },
    },
    {
      method: 'GET', path: `${base}/{id}/bindings`,
      options: {
        auth: 'bearer', tags, description: 'The use case\'s field bindings, in order',
        plugins: { platform: admin }, validate: { params: s.idParams }, response: { schema: s.bindings },
      },
      handler: async (request) => ({ bindings: await useCases.bindings(tenantOf(request), request.params.id as string) }),
    },
    {
      method: 'PUT', path: `${base}/{id}/bindings`,
      options: {
        auth: 'bearer', tags, description: 'Replace the use case\'s field bindings',
        notes: '400 BINDINGS_INVALID names each binding at fault: a source that is not a field of the form version, a target that is not a bindable field of the target, transform_params that do not fit the transform, a field bound twice (but for one GEO_PARSE latitude and one longitude). 400 REQUIRED_FIELD_UNBOUND (`fields`) when the bindings are sound but leave required target fields neither bound nor covered by a standard mapping.',
        plugins: { platform: admin }, validate: { params: s.idParams, payload: s.bindings }, response: { schema: s.bindings },
      },
      handler: async (request) => ({
        bindings: await useCases.replaceBindings(tenantOf(request), request.params.id as string, (request.payload as { bindings: never[] }).bindings),
      }),
    },
  ];
}
