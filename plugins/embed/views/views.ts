// How the embed plugin's records leave the server. Timestamps of the
// credential are ISO 8601 without a zone, in UTC.
import type { ConfigRow } from '../store/configs.ts';
import type { EmbedFeatures } from '../store/tables.ts';

export const DEFAULT_FEATURES: EmbedFeatures = { uploads: false, history: true, feedback: true, voice: false };

/** UTC as ISO 8601 without the zone suffix (2.4), null stays null. */
export const utcWithoutZone = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString().replace(/Z$/, ''));

export function configView(clientKey: string, clientId: number, row: ConfigRow | undefined) {
  return {
    client_id: clientId,
    client_key: clientKey,
    enabled: row?.enabled ?? false,
    allowed_origins: row?.allowed_origins ?? [],
    default_mode: row?.default_mode ?? 'launcher',
    features: row?.features ?? DEFAULT_FEATURES,
    theme: row?.theme ?? {},
    service_account_client_id: row?.service_account_sub ?? null,
    embed_token_credentials_updated_at: utcWithoutZone(row?.credentials_updated_at ?? null),
    version: row?.version ?? 0,
    updated_at: row ? new Date(row.updated_at).toISOString() : null,
  };
}

export type ConfigView = ReturnType<typeof configView>;
