// Types of the package's `.` entry: mountPlatformChat, the client helpers, the options.
export type TokenProvider = () => string | null | undefined | Promise<string | null | undefined>;

export interface PlatformChatOptions {
  apiUrl?: string;
  clientKey?: string;
  /** Legacy alias of clientKey. */
  selectedClientId?: string | number;
  getAccessToken?: TokenProvider;
  /** The tenant the requests act in (X-Tenant-ID). */
  tenant?: string;
  /** A manifest the host already has (a prop only): the widget does not read one. */
  hostManifest?: Manifest;
  tokenProvider?: string;
  /** Named token providers (a prop only); `tokenProvider` picks one before window.PlatformChat.tokenProviders. */
  tokenProviders?: Record<string, TokenProvider>;
  title?: string;
  welcomeMessage?: string;
  placeholder?: string;
  locale?: 'en' | 'pt' | string;
  resumeHistory?: boolean;
  sessionSwitching?: boolean;
  allowFeedback?: boolean;
  allowUploads?: boolean;
  autoStart?: boolean;
  markEmbedRequests?: boolean;
  launcher?: boolean;
  placement?: 'bottom-right' | 'bottom-left';
  defaultOpen?: boolean;
  zIndex?: number | string;
  stylesheetUrl?: string;
}

export interface PlatformChatGlobal {
  getAccessToken?: TokenProvider;
  tokenProviders?: Record<string, TokenProvider>;
  stylesheetUrl?: string;
}

export interface PlatformChatElement extends HTMLElement, PlatformChatOptions {
  title: string;
  readonly options: PlatformChatOptions;
  show(): Promise<void>;
  hide(): void;
}

export interface PlatformChatInstance {
  element: PlatformChatElement;
  update(options: Partial<PlatformChatOptions>): void;
  destroy(): void;
}

export function mountPlatformChat(target: HTMLElement, options: PlatformChatOptions): PlatformChatInstance;
export function definePlatformChat(name?: string): void;
export const PlatformChatElement: { new (): PlatformChatElement; prototype: PlatformChatElement };

export interface Manifest {
  client_key: string;
  client_id: number;
  tenant?: string;
  tenant_display_name: string | null;
  default_mode: string;
  auth_modes: string[];
  features: { uploads?: boolean; history?: boolean; feedback?: boolean; voice?: boolean };
  theme: Record<string, unknown>;
}
export interface Session { id: string; title: string | null; is_active: boolean; last_active: string | null; created_at: string }
export interface Citation { ref: string; doc_name?: string; page?: number; section?: string; quote?: string; verification_status?: string }
export interface StoredMessage { id: number; role: string; content: string; tool_metadata?: Record<string, unknown> | null }
export interface UploadResult { collection_id: number; document_id: number | string; filename: string; context: string }
export interface Frame { seq: number; type: string; [key: string]: unknown }

export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  constructor(status: number, message: string, code?: string);
}
export const CAPABILITY_KEYS: string[];
export class ChatClient {
  constructor(config: { apiUrl: string; clientKey: string; tenant?: string; markEmbedRequests: boolean; tokenProvider: TokenProvider | undefined });
  manifest(): Promise<Manifest>;
  sessions(): Promise<Session[]>;
  createSession(): Promise<Session>;
  renameSession(id: string, title: string): Promise<Session>;
  deleteSession(id: string): Promise<void>;
  messages(id: string): Promise<StoredMessage[]>;
  cancel(id: string, turnId?: string): Promise<{ status: string }>;
  feedback(id: string, body: { message_id: number; rating: number; comment: string }): Promise<unknown>;
  upload(sessionId: string, file: File, onProgress: (fraction: number) => void): Promise<UploadResult>;
}
export function readFrames(response: Response, onFrame: (frame: Frame) => void): Promise<void>;
/** Sanitized HTML of Markdown (links open in a new tab with rel="noopener noreferrer"). */
export function renderMarkdown(text: string): Promise<string>;
