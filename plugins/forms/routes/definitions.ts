// REST routes of form definitions and their versions (tenant admins).
import { principalOf, tenantOf, type ServerRoute } from 'agent-platform/sdk';
import type { DefinitionsService } from '../services/definitions.ts';
import * as s from '../schemas.ts';

const admin = { tenant: 'required', role: 'admin' } as const;
const tags = ['api', 'forms'];
const base = '/api/admin/forms/definitions';

type Paging = { skip: number; limit: number };

export function definitionRoutes(definitions: DefinitionsService): ServerRoute[] {
  return [
    {
      method: 'GET', path: base,
      options: {
        auth: 'bearer', tags, description: 'List form definitions (without their schemas), newest first',
        plugins: { platform: admin }, validate: { query: s.paging }, response: { schema: s.listOf(s.definitionSummary, 'FormDefinitionList') },
      },
      handler: async (request) => {
        const { skip, limit } = request.query as Paging;
        return { ...(await definitions.list(tenantOf(request), skip, limit)), skip, limit };
      },
    },
    {
      method: 'POST', path: base,
      options: {
        auth: 'bearer', tags, description: 'Create a form definition: version 1 of its Form.io schema',
        notes: '400 FORM_SCHEMA_INVALID names every component at fault: missing or malformed keys, duplicate keys, code (custom conditionals or validation, calculated values, logic), URL data sources, patterns RE2 cannot run.',
        plugins: { platform: admin }, validate: { payload: s.createDefinition }, response: { schema: s.definition },
      },
      handler: async (request, h) =>
        h.response(await definitions.create(tenantOf(request), request.payload as never, principalOf(request).sub)).code(201),
    },
    {
      method: 'GET', path: `${base}/{id}`,
      options: {
        auth: 'bearer', tags, description: 'Read a form definition with its latest schema',
        plugins: { platform: admin }, validate: { params: s.idParams }, response: { schema: s.definition },
      },
      handler: (request) => definitions.get(tenantOf(request), request.params.id as string),
    },
    {
      method: 'PUT', path: `${base}/{id}`,
      options: {
        auth: 'bearer', tags, description: 'Edit a form definition: a changed schema becomes version N+1 (earlier versions stay as they were)',
        plugins: { platform: admin }, validate: { params: s.idParams, payload: s.updateDefinition }, response: { schema: s.definition },
      },
      handler: (request) => definitions.update(tenantOf(request), request.params.id as string, request.payload as never, principalOf(request).sub),
    },
    {
      method: 'DELETE', path: `${base}/{id}`,
      options: {
        auth: 'bearer', tags, description: 'Archive a form definition (409 FORM_DEFINITION_IN_USE while a use case uses it); its versions stay readable',
        plugins: { platform: admin }, validate: { params: s.idParams },
      },
      handler: async (request, h) => {
        await definitions.remove(tenantOf(request), request.params.id as string);
        return h.response().code(204);
      },
    },
    {
      method: 'GET', path: `${base}/{id}/versions`,
      options: {
        auth: 'bearer', tags, description: 'The versions of a form definition, newest first (archived definitions included)',
        plugins: { platform: admin }, validate: { params: s.idParams }, response: { schema: s.versionList },
      },
      handler: async (request) => ({ items: await definitions.versions(tenantOf(request), request.params.id as string) }),
    },
    {
      method: 'GET', path: `${base}/{id}/versions/{version}`,
      options: {
        auth: 'bearer', tags, description: 'One version of a form definition, with its schema',
        plugins: { platform: admin }, validate: { params: s.versionParams }, response: { schema: s.version },
      },
      handler: (request) => {
        const { id, version } = request.params as unknown as { id: string; version: number };
        return definitions.version(tenantOf(request), id, version);
      },
    },
    {
      method: 'POST', path: `${base}/{id}/versions/{version}/validate`,
      options: {
        auth: 'bearer', tags, description: 'Validate a payload against one version as a submission is validated, storing nothing',
        notes: 'Runs the server\'s Form.io validation of submissions (required, lengths, select values, patterns on RE2, unknown keys refused) and answers 200 `{valid, errors: [{path, message}], data}`; nothing is stored and no target runs (a use case\'s preview also hydrates).',
        plugins: { platform: admin }, validate: { params: s.versionParams, payload: s.validateBody }, response: { schema: s.validation },
      },
      handler: (request) => {
        const { id, version } = request.params as unknown as { id: string; version: number };
        return definitions.validate(tenantOf(request), id, version, (request.payload as { payload: Record<string, unknown> }).payload);
      },
    },
  ];
}
