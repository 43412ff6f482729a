// The section registry and the role table (README "Sections and roles"): the
// nav's order, and who sees what.
import t from 'tap';
import { allows, SECTION_ORDER } from '../app/sections/contract.ts';
import { SECTION_ROLES } from '../app/sections/roles.ts';

const seen = (roles: string[] | '*') => SECTION_ORDER.filter((key) => allows(SECTION_ROLES[key], roles));

t.test('the nav order is the console\'s section list', async (t) => {
  t.same([...SECTION_ORDER], ['overview', 'documents', 'chat', 'workflows', 'approvals', 'occurrences', 'forms', 'sources', 'transforms', 'pipelines', 'datasets', 'ontology', 'embed', 'integrations', 'settings']);
});

t.test('who sees which section', async (t) => {
  t.same(seen('*'), [...SECTION_ORDER], 'the super-admin: all');
  t.same(seen(['admin']), [...SECTION_ORDER], 'admin: all');
  t.same(seen(['staff']), ['overview', 'chat', 'approvals', 'occurrences', 'datasets'], 'staff');
  t.same(seen(['pipeline_editor']), ['overview', 'chat', 'approvals', 'sources', 'transforms', 'pipelines', 'datasets', 'ontology'], 'a pipeline editor');
  t.same(seen([]), ['overview', 'chat', 'approvals', 'datasets'], 'a member without roles');
});
