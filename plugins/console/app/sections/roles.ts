// Who sees each section: the roles of which the person must hold one in the
// current tenant (`member`: any member). They follow the API's role rules for
// what each section mainly does, so a person never opens a section whose
// calls would all be refused. README "Sections and roles" has the table.
import type { SectionKey, SectionRoles } from './contract.ts';

export const SECTION_ROLES: Record<SectionKey, SectionRoles> = {
  // Readiness and version are public; usage needs admin or staff, events admin, queues the super-admin: the page shows what the roles allow.
  overview: ['member'],
  // Collections, uploads and sync sources are changed by admins.
  documents: ['admin'],
  // Any member of the tenant may chat (the chat routes take every member).
  chat: ['member'],
  workflows: ['admin'],
  // Members see the cases they requested or must decide; admins all.
  approvals: ['member'],
  // The backoffice routes need staff or admin.
  occurrences: ['staff', 'admin'],
  // Form definitions, use cases and submissions are admin routes.
  forms: ['admin'],
  // The data workspace changes sources, transforms, pipelines and the ontology: admins and pipeline editors.
  sources: ['admin', 'pipeline_editor'],
  transforms: ['admin', 'pipeline_editor'],
  pipelines: ['admin', 'pipeline_editor'],
  // Every member of the tenant reads its datasets.
  datasets: ['member'],
  ontology: ['admin', 'pipeline_editor'],
  embed: ['admin'],
  integrations: ['admin'],
  settings: ['admin'],
};
