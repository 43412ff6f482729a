// The general domain of the built-in library: people, organizations,
// addresses and places, which every other domain refers to.
import { contactPoint, id, point, postalAddress } from './common.ts';
import type { LibraryDomain } from './types.ts';

const object = (required: string[], properties: Record<string, unknown>) =>
  ({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', required, properties, additionalProperties: false });

export const general: LibraryDomain = {
  id: 'general',
  name: 'General',
  description: 'People, organizations, addresses and places',
  schemas: [
    {
      id: 'person', title: 'Person', version: '1.0.0', description: 'A natural person (identity policies resolve records of people into one)',
      schema: object(['id', 'name'], {
        id,
        name: { type: 'string', minLength: 1, maxLength: 300 },
        given_name: { type: 'string', maxLength: 200 },
        family_name: { type: 'string', maxLength: 200 },
        birth_date: { type: 'string', format: 'date' },
        tax_id: { type: 'string', maxLength: 50 },
        contact: contactPoint,
        address: postalAddress,
      }),
    },
    {
      id: 'organization', title: 'Organization', version: '1.0.0', description: 'A company, association or public body',
      schema: object(['id', 'legal_name'], {
        id,
        legal_name: { type: 'string', minLength: 1, maxLength: 300 },
        trade_name: { type: 'string', maxLength: 300 },
        tax_id: { type: 'string', maxLength: 50 },
        kind: { enum: ['company', 'association', 'public_body', 'other'] },
        contact: contactPoint,
        address: postalAddress,
      }),
    },
    {
      id: 'address', title: 'Address', version: '1.0.0', description: 'A postal address with its location',
      schema: { ...object(['id'], { id, ...(postalAddress.properties as object), location: point }) },
    },
    {
      id: 'place', title: 'Place', version: '1.0.0', description: 'A named place: a square, park, building or area',
      schema: object(['id', 'name', 'location'], {
        id,
        name: { type: 'string', minLength: 1, maxLength: 300 },
        category: { type: 'string', maxLength: 100 },
        location: point,
        address: postalAddress,
      }),
    },
  ],
};
