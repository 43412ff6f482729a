// The event types the embed plugin registers. It also emits
// definition.updated (registered by workflows) when a client's embed
// configuration changes: {definition_type: 'embed_config', name: client_key,
// client_id, version, changed_fields}.
import type { EventTypeDefinition } from 'agent-platform/sdk';

/** The `source` of every event the embed plugin emits. */
export const EVENT_SOURCE = '/embed';

export const EVENT_TYPES: EventTypeDefinition[] = [
  { type: 'embed.credentials.provisioned', description: 'A client\'s embed credential (a service account) is provisioned; data: client_id, client_key, service_account_client_id' },
  { type: 'embed.credentials.rotated', description: 'The secret of a client\'s embed credential is rotated (the old one stops working)' },
  { type: 'embed.credentials.revoked', description: 'A client\'s embed credential is revoked (its service account deleted)' },
];
