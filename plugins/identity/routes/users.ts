// The /users routes: the tenant's members and their
// roles. Listing needs admin or pipeline_editor (other users' data); a member
// may read itself.
import { principalOf, tenantOf, Joi, type ServerRoute } from 'agent-platform/sdk';
import { editor, member } from '../access.ts';
import { pageQuery } from './policies.schemas.ts';
import type { UserService } from '../services/users.ts';

const tags = ['api', 'users'];
const user = Joi.object({
  sub: Joi.string(), display_name: Joi.string(), service_account: Joi.boolean(),
  roles: Joi.array().items(Joi.string()).description('Roles in this tenant'), created_at: Joi.date(),
}).label('TenantUser');
const userList = Joi.object({ items: Joi.array().items(user), total: Joi.number().integer(), limit: Joi.number().integer(), offset: Joi.number().integer() }).label('TenantUserList');
const subParams = Joi.object({ sub: Joi.string().min(1).max(255).pattern(/^[\x21-\x7e]+$/).required() });

export function userRoutes(users: UserService): ServerRoute[] {
  return [
    {
      method: 'GET', path: '/api/v1/users',
      options: { auth: 'bearer', tags, description: 'The tenant\'s members with their roles in it', plugins: { platform: editor }, validate: { query: pageQuery }, response: { schema: userList } },
      handler: (request) => users.list(tenantOf(request), request.query as never),
    },
    {
      method: 'GET', path: '/api/v1/users/{sub}',
      options: {
        auth: 'bearer', tags, description: 'A member of the tenant with its roles in it (yourself, or anyone with admin or pipeline_editor)',
        plugins: { platform: member }, validate: { params: subParams }, response: { schema: user },
      },
      handler: (request) => users.get(tenantOf(request), principalOf(request), (request.params as { sub: string }).sub),
    },
  ];
}
