// Scoped uploads: a file an end
// user attaches to one conversation. The client must have `uploads` enabled,
// the session must be the caller's on that client (chat's ownership rules:
// another user's is 404, another client 403), and the Origin allowlisted. The
// file goes into a collection private to the session (the ingestion api's
// private uploads): listed nowhere, searched by the agent only within that
// session, deleted with it. Ingestion's checks apply (type from the bytes:
// 415; its quota: 429), and EMBED_UPLOAD_MAX_BYTES (413).
import { domainError, forbidden, type Principal } from 'agent-platform/sdk';
import type { ChatApi } from '../../chat/api.ts';
import type { IngestionApi } from '../../ingestion/api.ts';
import { enabledClient, requireAllowed, requireOrigin } from '../access.ts';
import type { ClientCache } from '../cache/client-cache.ts';
import type { EmbedOptions } from '../options.ts';

export interface UploadRequest {
  tenantId: string;
  principal: Principal;
  selectedClient: string | number | undefined;
  sessionId: string;
  originHeader: unknown;
  file: { bytes: Buffer; filename: string };
}

/** The private collection of a chat session: the scope ingestion keys it by (the turn's execution context). */
export const sessionScope = (sessionId: string) => `chat_session:${sessionId}`;

export const tooLarge = (max: number) =>
  domainError(413, `The file is larger than ${max} bytes (EMBED_UPLOAD_MAX_BYTES)`, 'FILE_TOO_LARGE');

export function createUploadsService(options: EmbedOptions, cache: ClientCache, apis: { chat: () => ChatApi; ingestion: () => IngestionApi | undefined }) {
  return {
    async upload(input: UploadRequest) {
      const ingestion = apis.ingestion();
      if (!ingestion) throw forbidden('Uploads need the ingestion plugin, which this server does not run', 'EMBED_UPLOADS_DISABLED');
      if (input.file.bytes.length > options.uploadMaxBytes) throw tooLarge(options.uploadMaxBytes);
      const origin = requireOrigin(input.originHeader);
      const prepared = await ingestion.privateUploads.prepare(input.file);
      return apis.chat().sessions.owned(input.tenantId, input.principal, input.selectedClient, input.sessionId, async (trx, caller) => {
        const client = enabledClient(await cache.byId(caller.clientId), caller.clientId);
        if (client.tenantId !== input.tenantId) throw forbidden('Embedding is disabled for this client', 'EMBED_DISABLED');
        requireAllowed(client, origin);
        if (!client.features.uploads) throw forbidden('Uploads are disabled for this client', 'EMBED_UPLOADS_DISABLED');
        const stored = await ingestion.privateUploads.store(trx, input.tenantId, sessionScope(input.sessionId), prepared);
        return {
          collection_id: stored.collection_id,
          document_id: stored.document_id,
          filename: stored.filename,
          context: `The user attached the file "${stored.filename}" (document ${stored.document_id}); search_documents finds its content in this conversation.`,
        };
      });
    },

    /** A deleted session's private collection goes in the same transaction (chat's onSessionDeleted). */
    registerCleanup(): void {
      apis.chat().sessions.onSessionDeleted(async (trx, tenantId, sessionId) => {
        await apis.ingestion()?.privateUploads.deleteScope(trx, tenantId, sessionScope(sessionId));
      });
    },
  };
}

export type UploadsService = ReturnType<typeof createUploadsService>;
