// Occurrence types: staff-admin CRUD under /api/backoffice/occurrence-types
// (role admin), public reads of active types under /api/occurrence-types
// (X-Tenant-ID, no login, rate limited). Paths answer with and without the
// trailing slash (the router strips it).
import type { ServerRoute } from 'agent-platform/sdk';
import { tenantOf } from 'agent-platform/sdk';
import type { TypeInput, TypesService } from '../services/types.ts';
import * as s from '../schemas.ts';
import type { PublicTenant } from './public-caller.ts';
import type {} from '../../tenancy/api.ts';

const tags = ['api', 'occurrences'];
const admin = { tenant: 'required', role: 'admin' } as const;
/** Public reads answer CORS for the tenant's public origins (tenancy README). */
const publicCors = { tenancy: { publicCors: 'header' } } as const;
const base = '/api/backoffice/occurrence-types';

export function typeRoutes(types: TypesService, publicTenant: PublicTenant): ServerRoute[] {
  return [
    {
      method: 'GET', path: base,
      options: { auth: 'bearer', tags, plugins: { platform: admin }, description: 'List occurrence types, inactive ones included (staff admin)', response: { schema: s.staffTypeList } },
      handler: (request) => types.list(tenantOf(request)),
    },
    {
      method: 'POST', path: base,
      options: {
        auth: 'bearer', tags, plugins: { platform: admin }, description: 'Create an occurrence type (staff admin)',
        notes: '400 FORM_SCHEMA_INVALID for a Form.io schema the platform will not run or a bad v0 field list; 409 OCCURRENCE_TYPE_CODE_TAKEN.',
        validate: { payload: s.typeBody }, response: { schema: s.staffType },
      },
      handler: async (request, h) => h.response(await types.create(tenantOf(request), request.payload as TypeInput)).code(201),
    },
    {
      method: 'GET', path: `${base}/{id}`,
      options: { auth: 'bearer', tags, plugins: { platform: admin }, description: 'An occurrence type (staff admin)', validate: { params: s.idParams }, response: { schema: s.staffType } },
      handler: (request) => types.get(tenantOf(request), request.params.id as unknown as number),
    },
    {
      method: 'PUT', path: `${base}/{id}`,
      options: {
        auth: 'bearer', tags, plugins: { platform: admin }, description: 'Replace an occurrence type (staff admin)',
        validate: { params: s.idParams, payload: s.typeBody }, response: { schema: s.staffType },
      },
      handler: (request) => types.update(tenantOf(request), request.params.id as unknown as number, request.payload as TypeInput),
    },
    {
      method: 'DELETE', path: `${base}/{id}`,
      options: {
        auth: 'bearer', tags, plugins: { platform: admin }, description: 'Delete an occurrence type without occurrences (staff admin)',
        notes: '409 OCCURRENCE_TYPE_IN_USE when occurrences have it: deactivate it instead.', validate: { params: s.idParams },
      },
      handler: async (request, h) => {
        await types.remove(tenantOf(request), request.params.id as unknown as number);
        return h.response().code(204);
      },
    },
    {
      method: 'GET', path: '/api/occurrence-types',
      options: {
        auth: false, tags, plugins: publicCors, description: 'The active occurrence types (public: X-Tenant-ID, no login; rate limited per address and tenant)',
        notes: 'CORS for the tenant\'s public origins (PUT /api/admin/public-origins).',
        response: { schema: s.publicTypeList },
      },
      handler: async (request) => types.publicList(await publicTenant(request)),
    },
    {
      method: 'GET', path: '/api/occurrence-types/{id}',
      options: {
        auth: false, tags, plugins: publicCors, description: 'An active occurrence type with its form_schema (public: X-Tenant-ID, no login; rate limited)',
        notes: 'CORS for the tenant\'s public origins (PUT /api/admin/public-origins).',
        validate: { params: s.idParams }, response: { schema: s.publicType },
      },
      handler: async (request) => types.publicGet(await publicTenant(request), request.params.id as unknown as number),
    },
  ];
}
