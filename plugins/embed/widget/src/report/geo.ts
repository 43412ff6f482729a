// Whether a point is inside a GeoJSON Polygon or MultiPolygon ([longitude,
// latitude] rings; holes honoured), by ray casting: the element tells the
// citizen before submitting, the server decides.
import type { GeoJsonArea } from './api.ts';

function inRing(lng: number, lat: number, ring: number[][]): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if ((yi! > lat) !== (yj! > lat) && lng < ((xj! - xi!) * (lat - yi!)) / (yj! - yi!) + xi!) inside = !inside;
  }
  return inside;
}

const inPolygon = (lng: number, lat: number, rings: number[][][]) =>
  rings.length > 0 && inRing(lng, lat, rings[0]!) && !rings.slice(1).some((hole) => inRing(lng, lat, hole));

export function insideArea(area: GeoJsonArea, lat: number, lng: number): boolean {
  return area.type === 'Polygon' ? inPolygon(lng, lat, area.coordinates) : area.coordinates.some((polygon) => inPolygon(lng, lat, polygon));
}
