// What the service sends the widget (the manifest, uploads, sessions; the chat SSE frames of plugins/chat/README.md).
export interface Manifest {
  client_key: string;
  client_id: number;
  /** The tenant alias (X-Tenant-ID of its public routes). */
  tenant?: string;
  tenant_display_name: string | null;
  default_mode: string;
  auth_modes: string[];
  features: { uploads?: boolean; history?: boolean; feedback?: boolean; voice?: boolean };
  theme: Record<string, unknown>;
}

export interface Session {
  id: string;
  title: string | null;
  is_active: boolean;
  last_active: string | null;
  created_at: string;
}

export interface Citation {
  ref: string;
  doc_name?: string;
  page?: number;
  section?: string;
  quote?: string;
  verification_status?: string;
}

export interface StoredMessage {
  id: number;
  role: string;
  content: string;
  tool_metadata?: { interrupted?: boolean; citations?: Citation[]; widgets?: string[] } | null;
  feedback?: { rating: number; comment?: string } | null;
}

export interface UploadResult {
  collection_id: number;
  document_id: number | string;
  filename: string;
  context: string;
}

export interface Frame {
  seq: number;
  type: string;
  [key: string]: any;
}
