// The sources plugin's manifest options (joi: validated at boot, for the CLI too).
import Joi from 'joi';

export const optionsSchema = Joi.object({
  /** SOURCE_CREDENTIAL_MODE: `vault` (sealed credential store) or `legacy_inline` (sealed values inside source_config). */
  credentialMode: Joi.string().valid('vault', 'legacy_inline').default('vault'),
  /** PIPELINES_ALLOW_PRIVATE_NETWORKS: sources may reach loopback and private addresses. */
  allowPrivateNetworks: Joi.boolean().default(false),
});

export interface SourcesOptions {
  credentialMode: 'vault' | 'legacy_inline';
  allowPrivateNetworks: boolean;
}
