// What a section is (README "Adding a section"). A section is a folder
// sections/<key>/ whose entry module's default export is a Lit element (the
// shell defines it as <console-section-<key>>, in its own lazy chunk) and one
// line in registry.ts. The shell renders the page's only h1 (the section's
// label) and hands the element a SectionContext whenever it changes.
import type { ApiClient } from '../client.ts';
import type { Locale } from '../i18n.ts';

/** The roles of the signed-in person in the current tenant; `*` for the super-admin (every role). */
export type Roles = readonly string[] | '*';

export interface Me {
  kind: string;
  sub: string;
  tenant_id: string | null;
  roles: string[];
  tenants: { id: string; roles: string[] }[] | null;
}

export interface SectionContext {
  /** The REST client: the bearer token and X-Tenant-ID are added; errors are shown unless `quiet`. */
  api: ApiClient;
  locale: Locale;
  /** The tenant the calls act in (X-Tenant-ID). */
  tenant: string | null;
  roles: Roles;
  me: Me;
  /** Says `message` to screen readers (a polite live region). */
  announce(message: string): void;
}

/** The element a section's entry module exports as default: it receives `context`. */
export interface SectionElement extends HTMLElement {
  context: SectionContext | undefined;
}

export interface SectionEntry {
  /** The URL segment (`/console/<key>`) and the name of the folder. */
  key: SectionKey;
  /** The nav link's text and the page's h1. */
  labels: Record<Locale, string>;
  /** Who sees it (roles.ts). */
  roles: SectionRoles;
  /** The section's chunk. */
  load: () => Promise<{ default: CustomElementConstructor }>;
}

/** Every section of the console, in nav order; a section not in the registry yet is not shown. */
export const SECTION_ORDER = ['overview', 'documents', 'chat', 'workflows', 'approvals', 'occurrences', 'forms', 'sources', 'transforms', 'pipelines', 'datasets', 'ontology', 'embed', 'integrations', 'settings'] as const;
export type SectionKey = (typeof SECTION_ORDER)[number];

/** Roles of which the person must hold one; `member`: any member of the tenant. */
export type SectionRoles = readonly ('member' | 'admin' | 'staff' | 'pipeline_editor')[];

/** Whether a person with `roles` sees a section open to `allowed`. */
export function allows(allowed: SectionRoles, roles: Roles): boolean {
  if (roles === '*') return true;
  return allowed.some((role) => role === 'member' || roles.includes(role));
}
