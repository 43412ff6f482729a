// The console's sections: one line each (README "Adding a section"). Listed
// here means built and shown to the roles of roles.ts; the nav follows
// SECTION_ORDER whatever the order of this list.
import type { SectionEntry } from './contract.ts';
import { SECTION_ROLES } from './roles.ts';

export const SECTIONS: SectionEntry[] = [
  { key: 'overview', labels: { en: 'Overview', pt: 'Visão geral' }, roles: SECTION_ROLES.overview, load: () => import('./overview/overview.ts') },
  { key: 'documents', labels: { en: 'Documents', pt: 'Documentos' }, roles: SECTION_ROLES.documents, load: () => import('./documents/documents.ts') },
  { key: 'chat', labels: { en: 'Chat', pt: 'Chat' }, roles: SECTION_ROLES.chat, load: () => import('./chat/chat.ts') },
  { key: 'workflows', labels: { en: 'Workflows', pt: 'Fluxos de trabalho' }, roles: SECTION_ROLES.workflows, load: () => import('./workflows/workflows.ts') },
  { key: 'approvals', labels: { en: 'Approvals', pt: 'Aprovações' }, roles: SECTION_ROLES.approvals, load: () => import('./approvals/approvals.ts') },
  { key: 'occurrences', labels: { en: 'Occurrences', pt: 'Ocorrências' }, roles: SECTION_ROLES.occurrences, load: () => import('./occurrences/occurrences.ts') },
  { key: 'ontology', labels: { en: 'Ontology', pt: 'Ontologia' }, roles: SECTION_ROLES.ontology, load: () => import('./ontology/ontology.ts') },
  { key: 'pipelines', labels: { en: 'Pipelines', pt: 'Pipelines' }, roles: SECTION_ROLES.pipelines, load: () => import('./pipelines/pipelines.ts') },
  { key: 'datasets', labels: { en: 'Datasets', pt: 'Conjuntos de dados' }, roles: SECTION_ROLES.datasets, load: () => import('./datasets/datasets.ts') },
  { key: 'forms', labels: { en: 'Forms', pt: 'Formulários' }, roles: SECTION_ROLES.forms, load: () => import('./forms/forms.ts') },
  { key: 'transforms', labels: { en: 'Transforms', pt: 'Transformações' }, roles: SECTION_ROLES.transforms, load: () => import('./transforms/transforms.ts') },
  { key: 'sources', labels: { en: 'Sources', pt: 'Fontes' }, roles: SECTION_ROLES.sources, load: () => import('./sources/sources.ts') },
  { key: 'embed', labels: { en: 'Embed', pt: 'Incorporação' }, roles: SECTION_ROLES.embed, load: () => import('./embed/embed.ts') },
  { key: 'integrations', labels: { en: 'Integrations', pt: 'Integrações' }, roles: SECTION_ROLES.integrations, load: () => import('./integrations/integrations.ts') },
  { key: 'settings', labels: { en: 'Settings', pt: 'Definições' }, roles: SECTION_ROLES.settings, load: () => import('./settings/settings.ts') },
];
