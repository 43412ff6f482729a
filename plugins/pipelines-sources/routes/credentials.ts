// The credential routes (vault mode; in
// legacy_inline mode each answers 400 CREDENTIAL_MODE_LEGACY). Editors only:
// even metadata says which secrets a source holds.
import type { ServerRoute } from '@hapi/hapi';
import { tenantOf } from 'agent-platform/sdk';
import { editor } from '../access.ts';
import * as c from './credentials.schemas.ts';
import * as s from '../schemas.ts';
import type { CredentialInput, CredentialService } from '../services/credentials.ts';

const tags = ['api', 'credentials'];
const sourceIdOf = (params: unknown) => (params as { source_id: string }).source_id;

export function credentialRoutes(credentials: CredentialService): ServerRoute[] {
  const base = '/api/v1/sources/{source_id}/credentials';
  return [
    {
      method: 'GET', path: base,
      options: {
        auth: 'bearer', tags, description: 'Metadata of the source\'s credential: ref, name, kind, field names, presence, version, status, rotation time, reference count (never values)',
        plugins: { platform: editor }, validate: { params: s.sourceParams }, response: { schema: c.metadata },
      },
      handler: (request) => credentials.get(tenantOf(request), sourceIdOf(request.params)),
    },
    {
      method: 'POST', path: base,
      options: {
        auth: 'bearer', tags, description: 'Attach a credential: new values with a name, or an existing tenant-owned credential_ref (never both)',
        plugins: { platform: editor }, validate: { params: s.sourceParams, payload: c.attachBody }, response: { schema: c.metadata },
      },
      handler: async (request, h) => h.response(await credentials.attach(tenantOf(request), sourceIdOf(request.params), request.payload as CredentialInput)).code(201),
    },
    {
      method: 'PUT', path: base,
      options: {
        auth: 'bearer', tags, description: 'Rotate the attached credential: new values (merged over the stored ones) make a new version, for every source using it',
        plugins: { platform: editor }, validate: { params: s.sourceParams, payload: c.rotateBody }, response: { schema: c.metadata },
      },
      handler: (request) => credentials.rotate(tenantOf(request), sourceIdOf(request.params), (request.payload as { credential_values: Record<string, string> }).credential_values),
    },
    {
      method: 'DELETE', path: base,
      options: {
        auth: 'bearer', tags, description: 'Detach the credential (its stored data stays; revoke it once unused)',
        plugins: { platform: editor }, validate: { params: s.sourceParams },
      },
      handler: async (request, h) => {
        await credentials.detach(tenantOf(request), sourceIdOf(request.params));
        return h.response().code(204);
      },
    },
    {
      method: 'POST', path: `${base}/migrate`,
      options: {
        auth: 'bearer', tags, description: 'Move credential values left inline (legacy_inline) into the store: written and verified before the declared fields leave the relational row',
        plugins: { platform: editor }, validate: { params: s.sourceParams, payload: c.migrateBody }, response: { schema: c.metadata },
      },
      handler: (request) => credentials.migrate(tenantOf(request), sourceIdOf(request.params), (request.payload as { credential_name?: string } | null)?.credential_name),
    },
    {
      method: 'POST', path: '/api/v1/sources/credentials/{credential_ref}/revoke',
      options: {
        auth: 'bearer', tags, description: 'Revoke a credential no source references (409 CREDENTIAL_IN_USE otherwise); its sealed data is kept',
        plugins: { platform: editor }, validate: { params: c.refParams }, response: { schema: c.revoked },
      },
      handler: (request) => credentials.revoke(tenantOf(request), (request.params as { credential_ref: string }).credential_ref),
    },
  ];
}
