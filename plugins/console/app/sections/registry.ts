// The console's sections: one line each (README "Adding a section"). Listed
// here means built and shown to the roles of roles.ts; the nav follows
// SECTION_ORDER whatever the order of this list.
import type { SectionEntry } from './contract.ts';
import { SECTION_ROLES } from './roles.ts';

export const SECTIONS: SectionEntry[] = [
  { key: 'overview', labels: { en: 'Overview', pt: 'Visão geral' }, roles: SECTION_ROLES.overview, load: () => import('./overview/overview.ts') },
  { key: 'integrations', labels: { en: 'Integrations', pt: 'Integrações' }, roles: SECTION_ROLES.integrations, load: () => import('./integrations/integrations.ts') },
  { key: 'settings', labels: { en: 'Settings', pt: 'Definições' }, roles: SECTION_ROLES.settings, load: () => import('./settings/settings.ts') },
];
