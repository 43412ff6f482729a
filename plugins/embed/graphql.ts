// GraphQL: a client's embed configuration, for the same principals as
// GET /api/admin/clients/{client_id}/embed (a tenant admin's bearer token or
// the super-admin; members ROLE_REQUIRED, API keys and embed tokens FORBIDDEN).
// Credentials are managed over REST only (their secret is shown once).
import { requireAdmin, type GraphqlContext } from 'agent-platform/sdk';
import type { ConfigService } from './services/config.ts';

export const typeDefs = /* GraphQL */ `
  enum EmbedMode {
    LAUNCHER
    INLINE
  }

  "What the embedded chat widget may offer on a client."
  type EmbedFeatures {
    uploads: Boolean!
    history: Boolean!
    feedback: Boolean!
    voice: Boolean!
  }

  "A theme default of the widget (font_family, colours)."
  type EmbedThemeEntry {
    name: String!
    value: String!
  }

  "A client's embed configuration."
  type EmbedConfig {
    clientId: Int!
    clientKey: String!
    enabled: Boolean!
    allowedOrigins: [String!]!
    defaultMode: EmbedMode!
    features: EmbedFeatures!
    theme: [EmbedThemeEntry!]!
    "The embed credential's service account (its client_id for client_credentials), null when none."
    serviceAccountClientId: String
    version: Int!
  }

  extend type Query {
    "A client's embed configuration (defaults when never set); null when the tenant has no such client."
    embedConfig(clientId: Int!): EmbedConfig
  }
`;

export const graphqlPart = (config: ConfigService) => ({
  typeDefs,
  resolvers: {
    Query: {
      async embedConfig(_: unknown, args: { clientId: number }, context: GraphqlContext) {
        const tenantId = requireAdmin(context);
        const view = await config.get(tenantId, args.clientId).catch((err: { output?: { statusCode: number } }) => {
          if (err.output?.statusCode === 404) return null;
          throw err;
        });
        if (!view) return null;
        return {
          clientId: view.client_id,
          clientKey: view.client_key,
          enabled: view.enabled,
          allowedOrigins: view.allowed_origins,
          defaultMode: view.default_mode.toUpperCase(),
          features: view.features,
          theme: Object.entries(view.theme).map(([name, value]) => ({ name, value })),
          serviceAccountClientId: view.service_account_client_id,
          version: view.version,
        };
      },
    },
  },
});
