// The urban services domain of the built-in library: assets and reports a
// city's services keep (street lights, waste containers, parking spots,
// citizens' occurrences).
import { id, point, postalAddress, timestamp } from './common.ts';
import type { LibraryDomain } from './types.ts';

const object = (required: string[], properties: Record<string, unknown>) =>
  ({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', required, properties, additionalProperties: false });

export const urbanServices: LibraryDomain = {
  id: 'urban_services',
  name: 'Urban services',
  description: 'Public lighting, waste collection, parking and citizens\' occurrence reports',
  schemas: [
    {
      id: 'street_light', title: 'Street light', version: '1.0.0',
      description: 'A public lighting point: its lamp, power and state',
      schema: object(['id', 'location', 'status'], {
        id, location: point, address: postalAddress,
        status: { enum: ['ok', 'defective', 'off', 'under_maintenance'] },
        lamp_type: { enum: ['led', 'sodium', 'metal_halide', 'mercury', 'fluorescent', 'other'] },
        power_watts: { type: 'number', minimum: 0, maximum: 5000 },
        height_m: { type: 'number', minimum: 0, maximum: 60 },
        dimmable: { type: 'boolean' },
        switched_on_at: timestamp('When the light last switched on'),
        last_maintenance_at: timestamp('When it was last serviced'),
      }),
    },
    {
      id: 'waste_container', title: 'Waste container', version: '1.0.0',
      description: 'A street waste container: its stream, capacity and fill level',
      schema: object(['id', 'location', 'waste_type'], {
        id, location: point, address: postalAddress,
        waste_type: { enum: ['mixed', 'paper', 'plastic_metal', 'glass', 'organic', 'textile', 'batteries'] },
        capacity_l: { type: 'number', minimum: 0, maximum: 50_000 },
        fill_level: { type: 'number', minimum: 0, maximum: 1, description: 'Fraction full, 0 to 1' },
        status: { enum: ['ok', 'damaged', 'removed'] },
        last_emptied_at: timestamp('When it was last emptied'),
      }),
    },
    {
      id: 'parking_spot', title: 'Parking spot', version: '1.0.0',
      description: 'An on-street or off-street parking space and its occupancy',
      schema: object(['id', 'location'], {
        id, location: point,
        category: { enum: ['on_street', 'off_street', 'disabled', 'loading', 'electric_charging', 'motorcycle'] },
        occupied: { type: 'boolean' },
        observed_at: timestamp('When the occupancy was observed'),
        max_stay_minutes: { type: 'integer', minimum: 0, maximum: 10_080 },
        zone: { type: 'string', maxLength: 100 },
      }),
    },
    {
      id: 'occurrence', title: 'Occurrence', version: '1.0.0',
      description: 'A citizen\'s report of a problem in public space (the occurrence API\'s reports)',
      schema: object(['id', 'title', 'occurrence_type', 'location', 'reported_at'], {
        id,
        title: { type: 'string', minLength: 1, maxLength: 300 },
        description: { type: 'string', maxLength: 10_000 },
        occurrence_type: { type: 'string', maxLength: 100 },
        location: point, address: postalAddress,
        state: { type: 'string', maxLength: 100 },
        reported_at: timestamp('When it was reported'),
        reporter: { type: 'object', properties: { name: { type: 'string', maxLength: 200 }, email: { type: 'string', format: 'email' } }, additionalProperties: false },
      }),
    },
  ],
};
