// joi schemas shared by the tenancy routes (and so by the OpenAPI document).
import Joi from 'joi';
import { MAX_ORIGINS } from 'agent-platform/sdk';

// Lowercase letters, digits and hyphens: a UUID in its lowercase form is one.
export const tenantAlias = Joi.string()
  .max(64)
  .custom((value: string, helpers) => (/^[a-z0-9-]+$/.test(value) ? value : helpers.error('string.alias')))
  .messages({ 'string.alias': '{{#label}} must be lowercase letters, digits and hyphens, or a UUID' });

export const paging = Joi.object({
  skip: Joi.number().integer().min(0).default(0),
  limit: Joi.number().integer().min(1).max(500).default(50),
});

export const listOf = (item: Joi.Schema, label: string) =>
  Joi.object({ items: Joi.array().items(item), total: Joi.number().integer(), skip: Joi.number(), limit: Joi.number() }).label(label);

export const tenant = Joi.object({
  id: Joi.string(),
  display_name: Joi.string(),
  created_at: Joi.date(),
}).label('Tenant');

export const createTenant = Joi.object({
  id: tenantAlias.required(),
  display_name: Joi.string().trim().min(1).max(200),
}).label('CreateTenant');

export const client = Joi.object({
  id: Joi.number().integer(),
  client_key: Joi.string(),
  name: Joi.string(),
  created_at: Joi.date(),
}).label('Client');

export const createdTenant = tenant.keys({
  default_client: client.description('The client the tenant is created with (named "default"; rename it with PATCH /api/admin/clients/{id})'),
}).label('CreatedTenant');

export const createClient = Joi.object({
  name: Joi.string().trim().min(1).max(200).required(),
  client_key: Joi.string().pattern(/^[A-Za-z0-9_-]{3,100}$/).description('Public identifier; generated when absent'),
}).label('CreateClient');

export const renameClient = Joi.object({
  name: Joi.string().trim().min(1).max(200).required(),
}).label('RenameClient');

export const clientId = Joi.object({ id: Joi.number().integer().min(1).required() });

export const apiKey = Joi.object({
  id: Joi.number().integer(),
  name: Joi.string(),
  client_id: Joi.number().integer(),
  key_prefix: Joi.string(),
  created_at: Joi.date(),
  last_used_at: Joi.date().allow(null),
  revoked_at: Joi.date().allow(null),
  key: Joi.string().description('Returned once, at creation'),
}).label('ApiKey');

export const apiKeyQuery = Joi.object({ client_id: Joi.number().integer().min(1) });

export const createApiKey = Joi.object({
  name: Joi.string().trim().min(1).max(200).required(),
  client_id: Joi.number().integer().min(1).required(),
}).label('CreateApiKey');

const roles = Joi.array().items(Joi.string().pattern(/^[a-z][a-z0-9_:-]{0,63}$/)).max(32);

export const user = Joi.object({
  sub: Joi.string(),
  display_name: Joi.string(),
  organizations: Joi.object().pattern(Joi.string(), Joi.object({ roles })),
  service_account: Joi.boolean(),
  created_at: Joi.date(),
  client_secret: Joi.string().description('Service accounts only; returned once, at creation'),
}).label('User');

export const createUser = Joi.object({
  sub: Joi.string().min(1).max(255).pattern(/^[\x21-\x7e]+$/).required(),
  display_name: Joi.string().trim().min(1).max(200).required(),
  organizations: Joi.alternatives(
    Joi.array().items(tenantAlias).min(1),
    Joi.object().pattern(tenantAlias, Joi.object({ roles }).default({})).min(1),
  ).description('Tenant aliases, or an object keyed by alias with roles; defaults to the request tenant'),
  roles: roles.default([]).description('Roles in each listed organization that names none of its own'),
  service_account: Joi.boolean().default(false).description('Creates a client_secret for the client_credentials grant'),
}).label('CreateUser');

export const userSub = Joi.object({ sub: Joi.string().min(1).max(255).required() });

export const memberSub = Joi.object({
  sub: Joi.string().min(1).max(255).pattern(/^[\x21-\x7e]+$/).required().description('The user\'s subject'),
});

export const setMemberRoles = Joi.object({
  roles: roles.required().description('The member\'s roles in the request\'s tenant, replacing the current ones ([]: a plain member)'),
}).label('SetMemberRoles');

export const issuedToken = Joi.object({
  access_token: Joi.string(),
  token_type: Joi.string(),
  expires_in: Joi.number().integer(),
}).label('IssuedToken');

export const tokenRequest = Joi.object({
  grant_type: Joi.string().required(),
  client_id: Joi.string().max(255),
  client_secret: Joi.string().max(255),
  scope: Joi.string().allow(''),
})
  // RFC 6749 3.2: unrecognized parameters are ignored, so that e.g. a password
  // grant request is answered with unsupported_grant_type, not a validation error.
  .unknown(true)
  .label('TokenRequest');

export const whoami = Joi.object({
  kind: Joi.string(),
  sub: Joi.string(),
  tenant_id: Joi.string().allow(null),
  client_id: Joi.number().integer().allow(null),
  roles: Joi.array().items(Joi.string()),
  tenants: Joi.array().items(Joi.object({
    id: Joi.string(), roles: Joi.array().items(Joi.string()),
  }).label('WhoamiTenant')).allow(null)
    .description('The tenants a user belongs to, with its roles in each; null for callers that reach every tenant (the super-admin, service tokens)'),
}).label('Whoami');

export const publicOrigins = Joi.object({
  origins: Joi.array().items(Joi.string().description('An exact origin, scheme://host[:port]')),
}).label('PublicOrigins');

export const setPublicOrigins = Joi.object({
  origins: Joi.array().items(Joi.string().max(2048)).max(MAX_ORIGINS).required()
    .description(`Exact http(s) origins (scheme, host, optional port; no path, query, fragment or wildcard), at most ${MAX_ORIGINS}; replaces the list ([] clears it)`),
}).label('SetPublicOrigins');
