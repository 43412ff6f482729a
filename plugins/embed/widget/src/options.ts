// The widget's options: the same names as mount props,
// framework-wrapper props and (kebab-case) custom-element attributes. An
// attribute or prop wins over the manifest; the manifest over the defaults.
import { resolveLocale, type Locale } from './i18n.ts';
import type { Manifest } from './types.ts';

export type TokenProvider = () => string | null | undefined | Promise<string | null | undefined>;

export interface PlatformChatOptions {
  /** Base URL of the service (required). */
  apiUrl?: string;
  /** The public client key every request is scoped to (attribute `client-key`). */
  clientKey?: string;
  /** Legacy alias of clientKey, used when clientKey is absent (attribute `selected-client-id`). */
  selectedClientId?: string | number;
  /** Returns a host or embed token; called before each request. Default: window.PlatformChat.getAccessToken. */
  getAccessToken?: TokenProvider;
  /** The tenant the requests act in (X-Tenant-ID): a host token of a person in several tenants names it (attribute `tenant`). */
  tenant?: string;
  /** A manifest the host already has (a prop only): the widget does not read one. */
  hostManifest?: Manifest;
  /** Name of a provider in tokenProviders, else in window.PlatformChat.tokenProviders (attribute `token-provider`). */
  tokenProvider?: string;
  /** Named token providers (a prop only: functions never go through HTML); `tokenProvider` picks one. */
  tokenProviders?: Record<string, TokenProvider>;
  title?: string;
  welcomeMessage?: string;
  placeholder?: string;
  locale?: Locale | string;
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

/** Attribute name → option, for the element (and the wrappers, which set properties). */
export const ATTRIBUTES: Record<string, keyof PlatformChatOptions> = {
  'api-url': 'apiUrl', 'client-key': 'clientKey', 'selected-client-id': 'selectedClientId', 'token-provider': 'tokenProvider',
  tenant: 'tenant', title: 'title', 'welcome-message': 'welcomeMessage', placeholder: 'placeholder', locale: 'locale',
  'resume-history': 'resumeHistory', 'session-switching': 'sessionSwitching', 'allow-feedback': 'allowFeedback',
  'allow-uploads': 'allowUploads', 'mark-embed-requests': 'markEmbedRequests', launcher: 'launcher', placement: 'placement',
  'default-open': 'defaultOpen', 'z-index': 'zIndex', 'stylesheet-url': 'stylesheetUrl',
};

const BOOLEAN_OPTIONS = new Set<keyof PlatformChatOptions>(['resumeHistory', 'sessionSwitching', 'allowFeedback', 'allowUploads', 'markEmbedRequests', 'launcher', 'defaultOpen']);

/** Attributes that look like a credential: tokens never travel through HTML. */
export const TOKEN_LIKE_ATTRIBUTES = ['token', 'access-token', 'accesstoken', 'auth-token', 'id-token', 'bearer', 'bearer-token', 'jwt', 'api-key', 'embed-token', 'client-secret'];

/** An attribute's value as the option's type: a boolean attribute is true when present unless "false". */
export function attributeValue(option: keyof PlatformChatOptions, value: string | null): unknown {
  if (value === null) return undefined;
  if (BOOLEAN_OPTIONS.has(option)) return value !== 'false' && value !== '0';
  return value;
}

export interface PlatformChatGlobal {
  getAccessToken?: TokenProvider;
  tokenProviders?: Record<string, TokenProvider>;
  stylesheetUrl?: string;
}

declare global {
  interface Window { PlatformChat?: PlatformChatGlobal }
}

export interface ResolvedOptions {
  apiUrl: string;
  clientKey: string;
  tenant: string | undefined;
  locale: Locale;
  title: string | undefined;
  welcomeMessage: string | undefined;
  placeholder: string | undefined;
  resumeHistory: boolean;
  sessionSwitching: boolean;
  allowFeedback: boolean;
  allowUploads: boolean;
  autoStart: boolean;
  markEmbedRequests: boolean;
  launcher: boolean;
  tokenProvider: TokenProvider | undefined;
}

/** What is missing before the widget can talk to the service, or null. */
export function missingOption(options: PlatformChatOptions): string | null {
  if (!options.apiUrl) return 'api-url';
  if (!options.clientKey && (options.selectedClientId === undefined || options.selectedClientId === '')) return 'client-key';
  return null;
}

/**
 * The token provider: the getAccessToken prop, else the named provider (from
 * the tokenProviders prop, else window.PlatformChat.tokenProviders), else
 * window.PlatformChat.getAccessToken. Looked up per request.
 */
export function tokenProviderOf(options: PlatformChatOptions): TokenProvider | undefined {
  if (options.getAccessToken) return options.getAccessToken;
  const global = typeof window === 'undefined' ? undefined : window.PlatformChat;
  if (options.tokenProvider) return options.tokenProviders?.[options.tokenProvider] ?? global?.tokenProviders?.[options.tokenProvider];
  return global?.getAccessToken;
}

export function resolveOptions(options: PlatformChatOptions, manifest: Manifest | null, pageLang: string | null): ResolvedOptions {
  const features = manifest?.features ?? {};
  const clientKey = options.clientKey || String(options.selectedClientId ?? '');
  return {
    apiUrl: (options.apiUrl ?? '').replace(/\/+$/, ''),
    clientKey,
    tenant: options.tenant || undefined,
    locale: resolveLocale(options.locale, pageLang),
    title: options.title || undefined,
    welcomeMessage: options.welcomeMessage,
    placeholder: options.placeholder,
    resumeHistory: options.resumeHistory ?? features.history ?? true,
    sessionSwitching: options.sessionSwitching ?? false,
    allowFeedback: options.allowFeedback ?? features.feedback ?? true,
    allowUploads: options.allowUploads ?? features.uploads ?? false,
    autoStart: options.autoStart ?? true,
    // Set from the client key: a widget naming its client asks for that client's origin policy.
    markEmbedRequests: options.markEmbedRequests ?? Boolean(options.clientKey),
    launcher: options.launcher ?? manifest?.default_mode === 'launcher',
    tokenProvider: tokenProviderOf(options),
  };
}
