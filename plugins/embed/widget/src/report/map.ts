// The Leaflet maps (a lazily loaded chunk): the report element's point picker
// and the chat's map widget. Leaflet's stylesheet is adopted into the shadow
// root that holds the map. Points are vector circles (no marker images to
// fetch); the tile server is an option (OpenStreetMap by default): when it
// cannot be reached, the map still works on a blank background.
import * as L from 'leaflet';
import leafletCss from 'leaflet/dist/leaflet.css';
import mapCss from '../styles/map.css';
import type { GeoJsonArea } from './api.ts';

export const DEFAULT_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
export const DEFAULT_ATTRIBUTION = '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';

let sheets: CSSStyleSheet[] | null = null;

/** Leaflet's and the map's styles in the shadow root holding `container`. */
function adoptStyles(container: HTMLElement): void {
  const root = container.getRootNode();
  if (!(root instanceof ShadowRoot)) return;
  sheets ??= [leafletCss, mapCss].map((css) => {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    return sheet;
  });
  const missing = sheets.filter((sheet) => !root.adoptedStyleSheets.includes(sheet));
  if (missing.length) root.adoptedStyleSheets = [...root.adoptedStyleSheets, ...missing];
}

export interface MapOptions {
  tileUrl?: string;
  attribution?: string;
  /** The map's accessible name. */
  label: string;
}

function baseMap(container: HTMLElement, options: MapOptions): L.Map {
  adoptStyles(container);
  const map = L.map(container, { center: [20, 0], zoom: 2, keyboard: true, zoomSnap: 0.5 });
  L.tileLayer(options.tileUrl || DEFAULT_TILE_URL, { attribution: options.attribution || DEFAULT_ATTRIBUTION, maxZoom: 19 }).addTo(map);
  container.setAttribute('role', 'application');
  container.setAttribute('aria-label', options.label);
  // Drawn after the container has its size (it may just have been inserted).
  requestAnimationFrame(() => map.invalidateSize());
  return map;
}

export interface PickerMap {
  /** Places the point (and centres on it) without calling onPick. */
  setPoint(lat: number, lng: number): void;
  /** Draws the service area and fits the map to it. */
  showArea(area: GeoJsonArea): void;
  center(lat: number, lng: number, zoom?: number): void;
  /** Removes the point. */
  clear(): void;
  destroy(): void;
}

/**
 * The report's point picker: a click places the point; with the keyboard the
 * arrow keys move the map (Leaflet's keyboard handler) and Enter or Space
 * places the point at its centre, shown by a crosshair while the map has focus.
 */
export function pickerMap(container: HTMLElement, options: MapOptions & { onPick(lat: number, lng: number): void }): PickerMap {
  const map = baseMap(container, options);
  container.classList.add('picker');
  let marker: L.CircleMarker | null = null;
  const place = (lat: number, lng: number) => {
    marker ??= L.circleMarker([lat, lng], { radius: 9, color: '#b42318', weight: 3, fillColor: '#f04438', fillOpacity: 0.8 }).addTo(map);
    marker.setLatLng([lat, lng]);
  };
  const pick = (lat: number, lng: number) => {
    const wrapped = L.latLng(lat, lng).wrap();
    place(wrapped.lat, wrapped.lng);
    options.onPick(Number(wrapped.lat.toFixed(6)), Number(wrapped.lng.toFixed(6)));
  };
  map.on('click', (event: L.LeafletMouseEvent) => pick(event.latlng.lat, event.latlng.lng));
  container.addEventListener('keydown', (event) => {
    if (event.target !== container || (event.key !== 'Enter' && event.key !== ' ')) return;
    event.preventDefault();
    const c = map.getCenter();
    pick(c.lat, c.lng);
  });
  return {
    setPoint: (lat, lng) => { place(lat, lng); map.setView([lat, lng], Math.max(map.getZoom(), 16)); },
    showArea: (area) => {
      const layer = L.geoJSON(area as never, { style: { color: '#155eef', weight: 2, fillOpacity: 0.06 }, interactive: false }).addTo(map);
      map.fitBounds(layer.getBounds(), { padding: [8, 8] });
    },
    center: (lat, lng, zoom = 15) => map.setView([lat, lng], zoom),
    clear: () => { marker?.remove(); marker = null; },
    destroy: () => map.remove(),
  };
}

export interface MapPoint { lat: number; lng: number; label?: string }

/** The chat's map widget: its points as labelled markers, the view fitted to them. */
export function pointsMap(container: HTMLElement, points: MapPoint[], options: MapOptions & { zoom?: number }): { destroy(): void } {
  const map = baseMap(container, options);
  const group = L.featureGroup(points.map((p) => {
    const marker = L.circleMarker([p.lat, p.lng], { radius: 8, color: '#155eef', weight: 3, fillColor: '#528bff', fillOpacity: 0.85 });
    if (p.label) marker.bindTooltip(p.label, { permanent: true, direction: 'top', offset: [0, -8], className: 'point-label' });
    return marker;
  })).addTo(map);
  if (points.length === 1) map.setView([points[0]!.lat, points[0]!.lng], options.zoom ?? 15);
  else if (points.length > 1) map.fitBounds(group.getBounds(), { padding: [24, 24], maxZoom: options.zoom ?? 17 });
  return { destroy: () => map.remove() };
}
