// Distances and areas without PostGIS: great-circle distance (haversine, on
// a sphere of the mean Earth radius: under 0.5 % off, plenty for "within 50 m"),
// the latitude/longitude box that holds a circle (the index prefilter), and
// point-in-polygon for a GeoJSON service area (ray casting, holes honoured).

const EARTH_RADIUS_M = 6_371_008.8;
const rad = (degrees: number) => (degrees * Math.PI) / 180;

export function distanceMeters(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = rad(lat2 - lat1);
  const dLon = rad(lon2 - lon1);
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

export interface Box {
  minLat: number;
  maxLat: number;
  minLon: number;
  maxLon: number;
}

/** A box holding every point within `radius` metres of (lat, lon); near the poles it spans every longitude. */
export function boundingBox(lat: number, lon: number, radius: number): Box {
  const dLat = (radius / EARTH_RADIUS_M) * (180 / Math.PI);
  const minLat = Math.max(-90, lat - dLat);
  const maxLat = Math.min(90, lat + dLat);
  const cosLat = Math.cos(rad(Math.max(Math.abs(minLat), Math.abs(maxLat))));
  if (cosLat < 1e-6 || maxLat === 90 || minLat === -90) return { minLat, maxLat, minLon: -180, maxLon: 180 };
  const dLon = dLat / cosLat;
  // A box that crosses the antimeridian is widened to every longitude (rare; still correct, only slower).
  if (lon - dLon < -180 || lon + dLon > 180) return { minLat, maxLat, minLon: -180, maxLon: 180 };
  return { minLat, maxLat, minLon: lon - dLon, maxLon: lon + dLon };
}

type Ring = number[][];

function inRing(lon: number, lat: number, ring: Ring): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i];
    const [xj, yj] = ring[j];
    if ((yi > lat) !== (yj > lat) && lon < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function inPolygon(lon: number, lat: number, rings: Ring[]): boolean {
  if (!rings.length || !inRing(lon, lat, rings[0])) return false;
  return !rings.slice(1).some((hole) => inRing(lon, lat, hole));
}

export interface ServiceArea {
  type: 'Polygon' | 'MultiPolygon';
  coordinates: unknown;
}

/** Whether (lat, lon) lies in a GeoJSON Polygon or MultiPolygon (coordinates in longitude, latitude order). */
export function inServiceArea(area: ServiceArea, lat: number, lon: number): boolean {
  if (area.type === 'Polygon') return inPolygon(lon, lat, area.coordinates as Ring[]);
  return (area.coordinates as Ring[][]).some((polygon) => inPolygon(lon, lat, polygon));
}
