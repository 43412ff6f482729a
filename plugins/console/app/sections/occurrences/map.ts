// The map of the listed occurrences (its own chunk, with Leaflet, loaded when
// the list is first shown). Leaflet's stylesheet is adopted into the shadow
// root holding the map; points are vector circles (no marker images); the
// tiles come from the console's setting, and without them the points still
// show on the plain background.
import * as L from 'leaflet';
import leafletCss from 'leaflet/dist/leaflet.css' with { type: 'text' };

export interface MapPoint { id: number; latitude: number; longitude: number; label: string }

export interface PointsMap {
  show(points: MapPoint[]): void;
  destroy(): void;
}

const OSM_ATTRIBUTION = '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';
let sheet: CSSStyleSheet | null = null;

function adoptStyles(container: HTMLElement): void {
  const root = container.getRootNode();
  if (!(root instanceof ShadowRoot)) return;
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(leafletCss);
  }
  if (!root.adoptedStyleSheets.includes(sheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
}

/** The attribution Leaflet shows (HTML): OpenStreetMap's for its tiles, else the tile host as text. */
function attribution(tileUrl: string): string {
  const host = new URL(tileUrl.replace('{s}.', 's.')).host;
  if (/(^|\.)openstreetmap\.org$/.test(host)) return OSM_ATTRIBUTION;
  return host.replace(/[^A-Za-z0-9.:-]/g, '');
}

export function pointsMap(container: HTMLElement, tileUrl: string, onOpen: (id: number) => void): PointsMap {
  adoptStyles(container);
  const map = L.map(container, { center: [20, 0], zoom: 2, keyboard: true, zoomSnap: 0.5 });
  L.tileLayer(tileUrl, { attribution: attribution(tileUrl), maxZoom: 19 }).addTo(map);
  const layer = L.layerGroup().addTo(map);
  requestAnimationFrame(() => map.invalidateSize());
  return {
    show(points) {
      layer.clearLayers();
      const bounds: L.LatLngExpression[] = [];
      for (const point of points) {
        const at: L.LatLngExpression = [point.latitude, point.longitude];
        bounds.push(at);
        L.circleMarker(at, { radius: 8, color: '#0b5cad', weight: 2, fillColor: '#3b82f6', fillOpacity: 0.7, className: 'occurrence-marker' })
          .bindTooltip(point.label)
          .on('click', () => onOpen(point.id))
          .addTo(layer);
      }
      map.invalidateSize();
      if (bounds.length === 1) map.setView(bounds[0], 15);
      else if (bounds.length > 1) map.fitBounds(L.latLngBounds(bounds), { padding: [24, 24], maxZoom: 16 });
    },
    destroy() { map.remove(); },
  };
}
