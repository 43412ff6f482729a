// What the Ontology section lists as the changes from one entity-type
// version to the next (app/sections/ontology/version-changes.ts).
import t from 'tap';
import { versionChanges } from '../app/sections/ontology/version-changes.ts';
import type { TypeDefinition } from '../app/sections/ontology/types.ts';

const base: TypeDefinition = {
  name: 'Street light', description: null, keys: ['id'], carrier_types: [],
  properties: { type: 'object', required: ['id'], properties: { id: { type: 'string' }, watts: { type: 'integer' }, label: { type: 'string' } } },
  relationships: [{ name: 'pole', target_type: 'pole', cardinality: 'one', via: 'pole_id' }],
};

t.test('the first version, and a version equal to the one before', async (t) => {
  t.same(versionChanges(null, base), [{ kind: 'created' }]);
  const reordered = { ...base, properties: { properties: { label: { type: 'string' }, watts: { type: 'integer' }, id: { type: 'string' } }, required: ['id'], type: 'object' } };
  t.same(versionChanges(base, reordered), [], 'key order is no change');
});

t.test('every kind of change, in a stable order', async (t) => {
  const next: TypeDefinition = {
    name: 'Lamp', description: 'now described', keys: ['id', 'serial'], carrier_types: ['street'],
    properties: { type: 'object', required: ['watts'], properties: { id: { type: 'string' }, watts: { type: 'number' }, serial: { type: 'string' } } },
    relationships: [{ name: 'pole', target_type: 'pole', cardinality: 'many', via: 'pole_id' }, { name: 'cabinet', target_type: 'cabinet', cardinality: 'one', via: 'cabinet_id' }],
  };
  t.same(versionChanges(base, next), [
    { kind: 'name', subject: 'Lamp' }, { kind: 'description' },
    { kind: 'propertyAdded', subject: 'serial' }, { kind: 'propertyChanged', subject: 'watts' }, { kind: 'propertyRemoved', subject: 'label' },
    { kind: 'required', subject: 'watts' }, { kind: 'optional', subject: 'id' },
    { kind: 'keys', subject: 'id, serial' },
    { kind: 'relationshipChanged', subject: 'pole' }, { kind: 'relationshipAdded', subject: 'cabinet' },
    { kind: 'carriers', subject: 'street' },
  ]);
});
