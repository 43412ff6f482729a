// The console's sections: one line each (README "Adding a section"). Listed
// here means built and shown to the roles of roles.ts; the nav follows
// SECTION_ORDER whatever the order of this list.
import type { SectionEntry } from './contract.ts';
import { SECTION_ROLES } from './roles.ts';

export const SECTIONS: SectionEntry[] = [
  { key: 'overview', labels: { en: 'Overview', pt: 'Visão geral' }, roles: SECTION_ROLES.overview, load: () => import('./overview/overview.ts') },
  { key: 'occurrences', labels: { en: 'Occurrences', pt: 'Ocorrências' }, roles: SECTION_ROLES.occurrences, load: () => import('./occurrences/occurrences.ts') },
  { key: 'embed', labels: { en: 'Embed', pt: 'Incorporação' }, roles: SECTION_ROLES.embed, load: () => import('./embed/embed.ts') },
];
