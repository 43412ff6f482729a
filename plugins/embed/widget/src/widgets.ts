// The display widgets of an answer (the chat contract's `map_widget` and
// `report_widget`, see plugins/chat/README.md): a map of labelled points (the
// Leaflet chunk, loaded when a map is shown) and a report card whose "Report
// this" button opens the report element prefilled with what the conversation
// gathered (loaded on that click); the visitor reviews and sends it.
import { html, nothing } from 'lit';
import { ref } from 'lit/directives/ref.js';
import type { ChatPanel } from './panel.ts';
import type { MapPoint } from './report/map.ts';
import type { ReportPrefill } from './report/element.ts';

export interface ViewWidget { widget_type: string; data: unknown; open?: boolean }

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const text = (v: unknown, max = 2000) => (typeof v === 'string' && v.trim() ? v.trim().slice(0, max) : undefined);

/** A map widget's points: those with a valid latitude and longitude, at most 200. */
export function mapPoints(data: unknown): MapPoint[] {
  const points = (data as { points?: unknown })?.points;
  if (!Array.isArray(points)) return [];
  return points.filter((p) => isNumber(p?.lat) && isNumber(p?.lng) && Math.abs(p.lat) <= 90 && Math.abs(p.lng) <= 180)
    .slice(0, 200).map((p) => ({ lat: p.lat, lng: p.lng, label: text(p.label, 200) }));
}

/** What a report widget prefills: the type code, title, description, location, address. */
export function reportPrefill(data: unknown): ReportPrefill {
  const d = (data ?? {}) as Record<string, unknown>;
  const prefill: ReportPrefill = { occurrence_type: text(d.occurrence_type, 100), title: text(d.title, 300), description: text(d.description ?? d.summary, 5000), address: text(d.address, 500) };
  if (isNumber(d.latitude) && isNumber(d.longitude) && Math.abs(d.latitude) <= 90 && Math.abs(d.longitude) <= 180) {
    prefill.latitude = d.latitude;
    prefill.longitude = d.longitude;
  }
  return prefill;
}

const mounted = new WeakSet<Element>();

function mountMap(p: ChatPanel, points: MapPoint[], zoom: number | undefined) {
  return ref((element) => {
    if (!element || mounted.has(element)) return;
    mounted.add(element);
    void import('./report/map.ts').then(({ pointsMap }) => pointsMap(element as HTMLElement, points, { label: p.strings.mapLabel, zoom }));
  });
}

export function renderWidget(p: ChatPanel, w: ViewWidget) {
  const s = p.strings;
  if (w.widget_type === 'map') {
    const points = mapPoints(w.data);
    if (!points.length) return nothing;
    const data = w.data as { title?: unknown; zoom?: unknown };
    return html`<figure class="widget" data-widget="map"><figcaption>${text(data.title, 200) ?? s.map}</figcaption>
      <div class="widget-map" part="widget-map" tabindex="0" ${mountMap(p, points, isNumber(data.zoom) ? data.zoom : undefined)}></div>
      <ul class="sr-only">${points.map((pt) => html`<li>${pt.label ?? ''} (${pt.lat}, ${pt.lng})</li>`)}</ul></figure>`;
  }
  if (w.widget_type !== 'report') return nothing;
  const prefill = reportPrefill(w.data);
  const tenant = p.host.manifest?.tenant;
  const open = () => {
    w.open = !w.open;
    p.update();
    if (w.open) void import('./report/element.ts').then(({ definePlatformReport }) => definePlatformReport());
  };
  return html`<figure class="widget" data-widget="report"><figcaption>${prefill.title ?? s.report}</figcaption>
    ${prefill.description ? html`<p>${prefill.description}</p>` : nothing}
    ${tenant ? html`<button class="text-button report-this" part="report-this" type="button" aria-expanded=${w.open ? 'true' : 'false'} @click=${open}>${s.reportThis}</button>` : nothing}
    ${w.open && tenant ? html`<platform-report .apiUrl=${p.options.apiUrl} .tenant=${tenant} .prefill=${prefill} lang=${p.options.locale}></platform-report>` : nothing}
  </figure>`;
}
