// The tenancy plugin's manifest options (manifests/default.yaml feeds them from the environment).
import { Joi } from 'agent-platform/sdk';

export interface TenancyOptions {
  /** Localhost and loopback origins may be public origins (EMBED_ALLOW_LOCALHOST_ORIGINS, shared with the embed plugin). */
  allowLocalhostOrigins: boolean;
}

export const optionsSchema = Joi.object({
  allowLocalhostOrigins: Joi.boolean().default(false)
    .description('Lets a tenant allowlist localhost and loopback origins (localhost, *.localhost, 127.0.0.0/8, [::1]) as embed origins and public origins (development)'),
}).default({});
