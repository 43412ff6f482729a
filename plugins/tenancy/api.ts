// What the tenancy plugin exposes to other plugins (register's `tenancy` dependency);
// they import only these types.

/** A service account's credential for the client_credentials grant (POST /oauth/token). */
export interface ServiceAccountSecret {
  /** The `client_id` of the grant: the service account's user sub. */
  sub: string;
  /** Shown once; only its hash is stored. */
  clientSecret: string;
}

/** Service accounts a plugin makes for one purpose (the embed plugin: one per client's embed credential). */
export interface ServiceAccounts {
  /**
   * A service account, a member of the tenants in `memberships` (default: of
   * none, so its token reaches no tenant route: only what checks its sub, as
   * embed token minting does); 409 when the sub is taken.
   */
  create(input: { sub: string; displayName: string; memberships?: Record<string, { roles: string[] }> }): Promise<ServiceAccountSecret>;
  /** A new secret; the old one stops working at once. 404 when there is no such service account. */
  rotate(sub: string): Promise<ServiceAccountSecret>;
  /** Deletes it (its secret no longer trades for tokens); false when there was none. */
  remove(sub: string): Promise<boolean>;
}

export interface TenancyApi {
  serviceAccounts: ServiceAccounts;
  members: TenantMembers;
}

/** A member of a tenant as other plugins see it: only its membership of that tenant. */
export interface TenantMember {
  sub: string;
  display_name: string;
  service_account: boolean;
  roles: string[];
  created_at: Date;
}

/** The members of a tenant, read by other plugins (the data-pipeline /users routes). */
export interface TenantMembers {
  list(tenantId: string, page: { limit: number; offset: number }): Promise<{ items: TenantMember[]; total: number }>;
  /** null when there is no such user or it is no member of the tenant. */
  get(tenantId: string, sub: string): Promise<TenantMember | null>;
}

/** Where a public route's tenant is named: its X-Tenant-ID header, or its path's `{tenant}`. */
export type PublicCorsTenant = 'header' | 'path';

// What this plugin exposes as `api` (what a plugin declaring it receives in
// register), and the route option of the public routes that answer CORS for
// their tenant's public origins (README "Public origins").
declare module '@hapi/hapi' {
  interface PluginProperties {
    tenancy: { api: TenancyApi };
  }
  interface PluginSpecificConfiguration {
    tenancy?: {
      /** The route answers CORS for its tenant's public origins; the tenant is named as this says. */
      publicCors?: PublicCorsTenant;
    };
  }
}
