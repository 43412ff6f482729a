// The shell's strings in English and Portuguese, and the locale rules (the
// widget's approach: one typed dictionary per locale, `{name}` placeholders).
// A section keeps its own strings beside it, in its chunk.
export type Locale = 'en' | 'pt';
export const LOCALES: readonly Locale[] = ['en', 'pt'];

const en = {
  product: 'Agent Platform console',
  skipToContent: 'Skip to content',
  signInTitle: 'Sign in',
  accessToken: 'Access token',
  signIn: 'Sign in',
  signInWith: 'Sign in with {issuer}',
  signingIn: 'Signing in…',
  signOut: 'Sign out',
  signedOutNotice: 'You are signed out.',
  tokenRefused: 'This access token was not accepted: {message}',
  linkRefused: 'This sign-in link is unknown, used or expired. Ask for a new one.',
  oidcFailed: 'Sign-in with {issuer} failed: {message}',
  sessionExpired: 'Your session has ended. Sign in again.',
  tenant: 'Tenant',
  language: 'Language',
  menu: 'Menu',
  sections: 'Sections',
  signedInAs: 'Signed in as {sub}',
  loading: 'Loading…',
  loaded: '{section} loaded',
  noSections: 'Your roles in this tenant give access to no section of the console.',
  noTenant: 'You belong to no tenant yet.',
  networkError: 'The platform cannot be reached. Check the connection and try again.',
  requestFailed: '{message}',
  dismiss: 'Dismiss',
  confirm: 'Confirm',
  cancel: 'Cancel',
};

export type Strings = typeof en;

const pt: Strings = {
  product: 'Consola da Agent Platform',
  skipToContent: 'Saltar para o conteúdo',
  signInTitle: 'Iniciar sessão',
  accessToken: 'Token de acesso',
  signIn: 'Entrar',
  signInWith: 'Entrar com {issuer}',
  signingIn: 'A entrar…',
  signOut: 'Terminar sessão',
  signedOutNotice: 'Terminou a sessão.',
  tokenRefused: 'Este token de acesso não foi aceite: {message}',
  linkRefused: 'Esta ligação de entrada é desconhecida, já foi usada ou expirou. Peça uma nova.',
  oidcFailed: 'A entrada com {issuer} falhou: {message}',
  sessionExpired: 'A sua sessão terminou. Entre de novo.',
  tenant: 'Inquilino',
  language: 'Idioma',
  menu: 'Menu',
  sections: 'Secções',
  signedInAs: 'Sessão iniciada como {sub}',
  loading: 'A carregar…',
  loaded: '{section} carregada',
  noSections: 'Os seus papéis neste inquilino não dão acesso a nenhuma secção da consola.',
  noTenant: 'Ainda não pertence a nenhum inquilino.',
  networkError: 'A plataforma não está acessível. Verifique a ligação e tente de novo.',
  requestFailed: '{message}',
  dismiss: 'Fechar',
  confirm: 'Confirmar',
  cancel: 'Cancelar',
};

export const STRINGS: Record<Locale, Strings> = { en, pt };

/** Portuguese for any `pt*` language, English otherwise. */
export function resolveLocale(lang: string | null | undefined): Locale {
  const value = (lang || '').toLowerCase();
  return value === 'pt' || value.startsWith('pt-') ? 'pt' : 'en';
}

export function format(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (_, key: string) => String(values[key] ?? ''));
}

const LANGUAGE_KEY = 'console.language';

/** The chosen language (kept in localStorage: a preference, no secret), else the browser's. */
export function initialLocale(): Locale {
  const chosen = localStorage.getItem(LANGUAGE_KEY);
  return chosen === 'en' || chosen === 'pt' ? chosen : resolveLocale(navigator.language);
}

export function rememberLocale(locale: Locale): void {
  localStorage.setItem(LANGUAGE_KEY, locale);
}
