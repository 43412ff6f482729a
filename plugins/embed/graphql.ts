// GraphQL: a client's embed configuration, for the same principals as
// GET /api/admin/clients/{client_id}/embed (a tenant admin's bearer token or
// the super-admin; members ROLE_REQUIRED, API keys and embed tokens FORBIDDEN).
// Credentials are managed over REST only (their secret is shown once).
import { requireAdmin, requireMember, type GraphqlContext } from 'agent-platform/sdk';
import type { ConfigService } from './services/config.ts';

export const typeDefs = /* GraphQL */ `
  "How the widget shows itself by default: a launcher button, or inline in the page."
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
    "The client the configuration is for (see client)."
    clientId: ID!
    "The client the configuration is for (GET /api/admin/clients/{id}: members)."
    client: Client
    clientKey: String!
    enabled: Boolean!
    allowedOrigins: [String!]!
    defaultMode: EmbedMode!
    features: EmbedFeatures!
    theme: [EmbedThemeEntry!]!
    "The subject of the embed credential's service account: the client_id of its client_credentials grant; null when none."
    serviceAccountSubject: String
    version: Int!
  }

  extend type Query {
    "A client's embed configuration (defaults when never set); null when the tenant has no such client."
    embedConfig(clientId: ID!): EmbedConfig
  }
`;

/** A client id as the clients table holds it (a positive integer), or undefined. */
function clientIdOf(value: string): number | undefined {
  if (!/^[1-9][0-9]{0,15}$/.test(value)) return undefined;
  const id = Number(value);
  return Number.isSafeInteger(id) ? id : undefined;
}

export const graphqlPart = (config: ConfigService) => ({
  typeDefs,
  resolvers: {
    Query: {
      async embedConfig(_: unknown, args: { clientId: string }, context: GraphqlContext) {
        const tenantId = requireAdmin(context);
        const clientId = clientIdOf(args.clientId);
        if (clientId === undefined) return null;
        const view = await config.get(tenantId, clientId).catch((err: { output?: { statusCode: number } }) => {
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
          serviceAccountSubject: view.service_account_client_id,
          version: view.version,
        };
      },
    },
    EmbedConfig: {
      async client(parent: { clientId: number }, _: unknown, context: GraphqlContext) {
        return (await config.client(requireMember(context), parent.clientId)) ?? null;
      },
    },
  },
});
