// What every GraphQL resolver receives: the caller and the request's tenant,
// as the /graphql route authenticated them.
import type { Request } from '@hapi/hapi';
import type { Principal } from '../auth/principal.ts';

export interface GraphqlContext {
  principal: Principal | undefined;
  tenantId: string | undefined;
  request: Request;
}
