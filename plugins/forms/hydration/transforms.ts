// The binding transforms, as pure functions of one value:
// NONE (as is), TO_INT (an integer or integer text), LOOKUP (params.table maps
// a value to another), GEO_PARSE (one coordinate, params.component latitude or
// longitude, out of a number, a "lat,lon" text, a {latitude, longitude} or
// {lat, lng|lon} object or a GeoJSON Point). A value a transform cannot take
// is a TransformError, reported as the payload's fault (422).
import type { TransformName } from '../api.ts';

export class TransformError extends Error {
  override name = 'TransformError';
}

export const TRANSFORMS: TransformName[] = ['NONE', 'TO_INT', 'LOOKUP', 'GEO_PARSE'];
export type Coordinate = 'latitude' | 'longitude';
export const MAX_LOOKUP_ENTRIES = 1000;

const INTEGER_TEXT = /^[+-]?\d{1,16}$/;
const NUMBER_TEXT = /^[+-]?(\d{1,3}(\.\d{1,15})?|\.\d{1,15})$/;

function toInt(value: unknown): number {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  if (typeof value === 'string' && INTEGER_TEXT.test(value.trim())) {
    const parsed = Number(value.trim());
    if (Number.isSafeInteger(parsed)) return parsed;
  }
  throw new TransformError(`${describe(value)} is not an integer`);
}

function lookup(value: unknown, table: Record<string, unknown>): unknown {
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
    throw new TransformError(`${describe(value)} cannot be looked up (only text, numbers and booleans)`);
  }
  const key = String(value);
  if (!Object.hasOwn(table, key)) throw new TransformError(`${describe(value)} is not in the lookup table`);
  return table[key];
}

function coordinateNumber(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && NUMBER_TEXT.test(value.trim())) return Number(value.trim());
  return undefined;
}

function pick(value: unknown, component: Coordinate): number | undefined {
  const direct = coordinateNumber(value);
  if (direct !== undefined) return direct;
  if (typeof value === 'string') {
    const parts = value.split(/[,;]/).map((part) => part.trim());
    if (parts.length === 2) return coordinateNumber(parts[component === 'latitude' ? 0 : 1]);
    return undefined;
  }
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const object = value as Record<string, unknown>;
    if (object.type === 'Point' && Array.isArray(object.coordinates) && object.coordinates.length >= 2) {
      return coordinateNumber(object.coordinates[component === 'latitude' ? 1 : 0]);
    }
    const candidates = component === 'latitude' ? [object.latitude, object.lat] : [object.longitude, object.lng, object.lon];
    for (const candidate of candidates) if (candidate !== undefined) return coordinateNumber(candidate);
  }
  return undefined;
}

function geoParse(value: unknown, component: Coordinate): number {
  const coordinate = pick(value, component);
  if (coordinate === undefined) throw new TransformError(`${describe(value)} holds no ${component}`);
  const limit = component === 'latitude' ? 90 : 180;
  if (Math.abs(coordinate) > limit) throw new TransformError(`${component} ${coordinate} is outside -${limit}..${limit}`);
  return coordinate;
}

/** Applies a transform to a value present in the payload. */
export function applyTransform(transform: TransformName, params: Record<string, unknown>, value: unknown): unknown {
  switch (transform) {
    case 'NONE':
      return value;
    case 'TO_INT':
      return toInt(value);
    case 'LOOKUP':
      return lookup(value, params.table as Record<string, unknown>);
    case 'GEO_PARSE':
      return geoParse(value, params.component as Coordinate);
  }
}

/** Why `params` do not fit `transform`, or undefined when they do. */
export function paramsProblem(transform: TransformName, params: Record<string, unknown>): string | undefined {
  const keys = Object.keys(params);
  switch (transform) {
    case 'NONE':
    case 'TO_INT':
      return keys.length ? `${transform} takes no transform_params` : undefined;
    case 'LOOKUP': {
      const table = params.table;
      if (keys.some((key) => key !== 'table')) return 'LOOKUP takes only transform_params.table';
      if (!table || typeof table !== 'object' || Array.isArray(table)) return 'LOOKUP needs transform_params.table, an object mapping values to values';
      const size = Object.keys(table).length;
      if (size === 0 || size > MAX_LOOKUP_ENTRIES) return `LOOKUP's table needs 1 to ${MAX_LOOKUP_ENTRIES} entries`;
      return undefined;
    }
    case 'GEO_PARSE':
      if (keys.some((key) => key !== 'component')) return 'GEO_PARSE takes only transform_params.component';
      return params.component === 'latitude' || params.component === 'longitude'
        ? undefined : 'GEO_PARSE needs transform_params.component: "latitude" or "longitude"';
    default:
      return `unknown transform ${JSON.stringify(transform)}`;
  }
}

function describe(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
