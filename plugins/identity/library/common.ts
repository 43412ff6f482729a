// Property schemas the built-in library's schemas share (GeoJSON points,
// addresses, contact points, timestamps), so that one concept reads alike in
// every domain.
import type { JsonSchema } from './types.ts';

export const point: JsonSchema = {
  type: 'object',
  description: 'A GeoJSON Point, WGS 84: [longitude, latitude]',
  required: ['type', 'coordinates'],
  properties: {
    type: { const: 'Point' },
    coordinates: {
      type: 'array', minItems: 2, maxItems: 3,
      items: [{ type: 'number', minimum: -180, maximum: 180 }, { type: 'number', minimum: -90, maximum: 90 }, { type: 'number' }],
    },
  },
  additionalProperties: false,
};

export const postalAddress: JsonSchema = {
  type: 'object',
  description: 'A postal address',
  properties: {
    street_address: { type: 'string', maxLength: 300 },
    locality: { type: 'string', maxLength: 200, description: 'city or town' },
    region: { type: 'string', maxLength: 200 },
    postal_code: { type: 'string', maxLength: 20, pattern: '^[A-Za-z0-9][A-Za-z0-9 -]{1,18}$' },
    country: { type: 'string', pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2' },
  },
  additionalProperties: false,
};

export const contactPoint: JsonSchema = {
  type: 'object',
  properties: {
    email: { type: 'string', format: 'email' },
    phone: { type: 'string', pattern: '^\\+?[0-9 ().-]{6,25}$' },
    url: { type: 'string', format: 'uri' },
  },
  additionalProperties: false,
};

export const id: JsonSchema = { type: 'string', minLength: 1, maxLength: 200, description: 'The entity\'s identifier in its source' };
export const timestamp = (description: string): JsonSchema => ({ type: 'string', format: 'date-time', description });
