// <platform-report>: the citizens' report form (occurrences' public routes).
// The type's form (v0 fields natively, v1 through the lazily loaded Form.io
// renderer), a Leaflet map (a lazy chunk) for the point, photos uploaded to
// file tokens, the duplicate check before sending (support a similar report
// instead), then the reference and the tracking link. Templates: view.ts.
import { LitElement, unsafeCSS, type PropertyDeclarations, type PropertyValues } from 'lit';
import tokensCss from '../styles/report.css';
import { format, resolveLocale } from '../i18n.ts';
import { REPORT_STRINGS, type ReportStrings } from './strings.ts';
import { ReportApi, ReportError, type GeoJsonArea, type OccurrenceType, type SimilarReport, type Submission } from './api.ts';
import { checkFields, type Values } from './fields.ts';
import { insideArea } from './geo.ts';
import { renderReport } from './view.ts';
import type { PickerMap } from './map.ts';
import type { FormioHandle } from './formio.ts';

/** What a caller (the chat's report widget) already knows: the citizen reviews it. */
export interface ReportPrefill {
  occurrence_type?: string;
  title?: string;
  description?: string;
  latitude?: number;
  longitude?: number;
  address?: string;
}

export interface PlatformReportOptions {
  apiUrl?: string;
  tenant?: string;
  /** A type's code: the form is fixed to that type. */
  occurrenceType?: string;
  lang?: string;
  /** Map tiles, `{z}/{x}/{y}` (OpenStreetMap by default) and their attribution (HTML). */
  tileUrl?: string;
  tileAttribution?: string;
  prefill?: ReportPrefill;
}

export interface Photo { key: string; name: string; percent: number; state: 'progress' | 'done' | 'failed'; token?: string; reason?: string; abort: AbortController }
export type Phase = 'loading' | 'form' | 'checking' | 'duplicates' | 'submitting' | 'done' | 'failed';
export interface Problem { field: string; message: string }

let photoCounter = 0;

export class PlatformReportElement extends LitElement {
  static properties: PropertyDeclarations = {
    apiUrl: { attribute: 'api-url' },
    tenant: { attribute: 'tenant' },
    occurrenceType: { attribute: 'occurrence-type' },
    tileUrl: { attribute: 'tile-url' },
    tileAttribution: { attribute: 'tile-attribution' },
    prefill: { attribute: false },
    phase: { state: true },
  };
  static styles = [unsafeCSS(tokensCss)];

  declare apiUrl: string | undefined;
  declare tenant: string | undefined;
  declare occurrenceType: string | undefined;
  declare tileUrl: string | undefined;
  declare tileAttribution: string | undefined;
  declare prefill: ReportPrefill | undefined;
  declare phase: Phase;

  types: OccurrenceType[] = [];
  typeId: number | null = null;
  title = '';
  description = '';
  address = '';
  reporterName = '';
  reporterEmail = '';
  reporterPhone = '';
  values: Values = {};
  point: { lat: number; lng: number } | null = null;
  area: GeoJsonArea | null = null;
  photos: Photo[] = [];
  problems: Problem[] = [];
  failure = '';
  status = '';
  mapState: 'loading' | 'ready' | 'failed' = 'loading';
  formioState: 'none' | 'loading' | 'ready' | 'failed' = 'none';
  similar: SimilarReport[] = [];
  result: { reference: string; supported: boolean; supportCount?: number } | null = null;
  private api: ReportApi | null = null;
  private map: PickerMap | null = null;
  private mapLoading = false;
  private formio: FormioHandle | null = null;
  private formioFor: number | null = null;
  private pending: Submission | null = null;

  constructor() {
    super();
    this.phase = 'loading';
  }

  get strings(): ReportStrings {
    return REPORT_STRINGS[resolveLocale(this.lang || this.closest('[lang]')?.getAttribute('lang'), document.documentElement.lang)];
  }

  get type(): OccurrenceType | undefined {
    return this.types.find((t) => t.id === this.typeId);
  }

  /** The page's refresh: every field change goes through it (one render per event). */
  changed = () => this.requestUpdate();

  connectedCallback(): void {
    super.connectedCallback();
    if (this.phase === 'loading') void this.start();
  }

  disconnectedCallback(): void {
    super.disconnectedCallback();
    for (const photo of this.photos) photo.abort.abort();
  }

  private async start(): Promise<void> {
    // Props set right after insertion (mountPlatformReport, the chat) land before this task.
    await new Promise((resolve) => setTimeout(resolve));
    const missing = !this.apiUrl ? 'api-url' : !this.tenant ? 'tenant' : null;
    if (missing) return this.fail(format(this.strings.errorConfig, { what: missing }));
    this.api = new ReportApi(this.apiUrl!, this.tenant!);
    try {
      const [types, area] = await Promise.all([this.api.types(), this.api.serviceArea().catch(() => null)]);
      const wanted = this.occurrenceType || this.prefill?.occurrence_type;
      this.types = this.occurrenceType ? types.filter((t) => t.code === this.occurrenceType) : types;
      this.area = area;
      if (this.types.length === 0) return this.fail(this.strings.noTypes);
      const chosen = this.types.find((t) => t.code === wanted) ?? (this.types.length === 1 ? this.types[0] : undefined);
      if (chosen) this.chooseType(chosen.id);
      this.applyPrefill();
      this.phase = 'form';
    } catch (error) {
      this.fail(this.describe(error));
    }
  }

  private applyPrefill(): void {
    const p = this.prefill;
    if (!p) return;
    this.title = p.title ?? this.title;
    this.description = p.description ?? this.description;
    this.address = p.address ?? this.address;
    if (typeof p.latitude === 'number' && typeof p.longitude === 'number') this.point = { lat: p.latitude, lng: p.longitude };
  }

  private fail(message: string): void {
    this.failure = message;
    this.phase = 'failed';
  }

  describe(error: unknown): string {
    const s = this.strings;
    if (!(error instanceof ReportError)) return format(s.errorGeneric, { message: String((error as Error)?.message ?? error) });
    if (error.status === 0) return s.errorNetwork;
    if (error.status === 429) return s.errorBusy;
    return format(s.errorGeneric, { message: error.message });
  }

  chooseType(id: number | null): void {
    this.typeId = id;
    this.values = {};
    this.problems = [];
    this.requestUpdate();
  }

  protected updated(changed: PropertyValues): void {
    super.updated(changed);
    void this.mountMap();
    void this.mountFormio();
  }

  private async mountMap(): Promise<void> {
    const container = this.renderRoot.querySelector<HTMLElement>('.map');
    if (!container || this.map || this.mapLoading) return;
    this.mapLoading = true;
    try {
      const { pickerMap } = await import('./map.ts');
      this.map = pickerMap(container, {
        tileUrl: this.tileUrl, attribution: this.tileAttribution, label: this.strings.mapLabel,
        onPick: (lat, lng) => this.setPoint(lat, lng, false),
      });
      if (this.area) this.map.showArea(this.area);
      if (this.point) this.map.setPoint(this.point.lat, this.point.lng);
      this.mapState = 'ready';
    } catch {
      this.mapState = 'failed';
    }
    this.requestUpdate();
  }

  private async mountFormio(): Promise<void> {
    const type = this.type;
    const schema = type?.form_schema.version === 'v1' ? type.form_schema.schema : null;
    if (this.formioFor === (schema ? type!.id : null)) return;
    this.formio?.destroy();
    this.formio = null;
    this.formioFor = schema ? type!.id : null;
    this.querySelector(':scope > [slot="form"]')?.remove();
    if (!schema) {
      this.formioState = 'none';
      return;
    }
    this.formioState = 'loading';
    this.requestUpdate();
    const target = document.createElement('div');
    target.slot = 'form';
    target.className = 'platform-report-form';
    this.append(target);
    try {
      const { renderFormio } = await import('./formio.ts');
      const handle = await renderFormio(target, schema, resolveLocale(this.lang, document.documentElement.lang));
      if (this.formioFor !== type!.id) return handle.destroy();
      this.formio = handle;
      this.formioState = 'ready';
    } catch (error) {
      console.warn('<platform-report>: the form could not be shown:', error);
      this.formioState = 'failed';
    }
    this.requestUpdate();
  }

  /** A point from the map (a click or Enter) or from the browser's geolocation. */
  setPoint(lat: number, lng: number, moveMap: boolean): void {
    this.point = { lat, lng };
    if (moveMap) this.map?.setPoint(lat, lng);
    this.status = format(this.strings.pointSet, { lat: lat.toFixed(5), lng: lng.toFixed(5) });
    this.problems = this.problems.filter((p) => p.field !== 'location');
    this.requestUpdate();
  }

  get outside(): boolean {
    return Boolean(this.point && this.area && !insideArea(this.area, this.point.lat, this.point.lng));
  }

  locate(): void {
    const s = this.strings;
    if (!navigator.geolocation) return void this.announce(format(s.locationFailed, { reason: 'unavailable' }));
    this.announce(s.locating);
    navigator.geolocation.getCurrentPosition(
      (position) => this.setPoint(Number(position.coords.latitude.toFixed(6)), Number(position.coords.longitude.toFixed(6)), true),
      (error) => this.announce(format(s.locationFailed, { reason: error.message || String(error.code) })),
      { enableHighAccuracy: true, timeout: 15_000 },
    );
  }

  private announce(message: string): void {
    this.status = message;
    this.requestUpdate();
  }

  addPhotos(files: FileList | null): void {
    for (const file of Array.from(files ?? [])) {
      const photo: Photo = { key: `p${++photoCounter}`, name: file.name, percent: 0, state: 'progress', abort: new AbortController() };
      this.photos = [...this.photos, photo];
      this.api!.upload(file, (fraction) => { photo.percent = Math.round(fraction * 100); this.requestUpdate(); }, photo.abort.signal).then(
        (token) => { photo.token = token; photo.state = 'done'; photo.percent = 100; },
        (error: ReportError) => {
          if (error.code === 'ABORTED') return;
          photo.state = 'failed';
          photo.reason = error.status === 413 ? this.strings.tooLarge : error.status === 415 ? this.strings.unsupportedType : this.describe(error);
        },
      ).finally(() => this.requestUpdate());
    }
    this.requestUpdate();
  }

  removePhoto(photo: Photo): void {
    photo.abort.abort();
    this.photos = this.photos.filter((p) => p !== photo);
    this.announce('');
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('input[type="file"]')?.focus());
  }

  /** The form's problems before anything is sent. */
  private check(): Problem[] {
    const s = this.strings;
    const problems: Problem[] = [];
    if (!this.type) problems.push({ field: 'occurrence_type', message: format(s.missing, { field: s.type }) });
    if (!this.title.trim()) problems.push({ field: 'title', message: format(s.missing, { field: s.title }) });
    if (!this.point) problems.push({ field: 'location', message: s.pointRequired });
    else if (this.outside) problems.push({ field: 'location', message: s.outsideArea });
    if (this.reporterEmail.trim() && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(this.reporterEmail.trim())) problems.push({ field: 'reporter_email', message: format(s.invalidEmail, { field: s.email }) });
    if (this.type?.form_schema.version === 'v0') problems.push(...checkFields(this.type.form_schema.dynamic_fields, this.values, s));
    if (this.photos.some((p) => p.state === 'progress')) problems.push({ field: 'attachments', message: s.uploadsPending });
    return problems;
  }

  private showProblems(problems: Problem[]): void {
    this.problems = problems;
    this.phase = 'form';
    this.requestUpdate();
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('.problems')?.focus());
  }

  async submit(): Promise<void> {
    if (this.phase !== 'form') return;
    const problems = this.check();
    let dynamicFields: Record<string, unknown> = this.values;
    if (this.formio) {
      const data = await this.formio.validate();
      if (!data) problems.push({ field: 'dynamic_fields', message: format(this.strings.missing, { field: this.strings.details }) });
      else dynamicFields = data;
    } else if (this.type?.form_schema.version === 'v1') {
      problems.push({ field: 'dynamic_fields', message: this.strings.loading });
    }
    if (problems.length) return this.showProblems(problems);
    const body: Submission = {
      title: this.title.trim(), occurrence_type: this.type!.id, latitude: this.point!.lat, longitude: this.point!.lng,
      dynamic_fields: dynamicFields, attachments: this.photos.filter((p) => p.state === 'done').map((p) => p.token!),
    };
    const optional: [keyof Submission, string][] = [['description', this.description], ['address', this.address], ['reporter_name', this.reporterName],
      ['reporter_email', this.reporterEmail], ['reporter_phone', this.reporterPhone]];
    for (const [key, value] of optional) if (value.trim()) (body as unknown as Record<string, unknown>)[key] = value.trim();
    this.problems = [];
    this.phase = 'checking';
    this.announce(this.strings.checking);
    try {
      const check = await this.api!.checkDuplicates(body);
      if (check.has_duplicates && check.similar_reports.length) {
        this.pending = body;
        this.similar = check.similar_reports;
        this.phase = 'duplicates';
        this.announce('');
        return this.focusOn('.similar h3');
      }
      await this.send(body);
    } catch (error) {
      this.serverProblem(error);
    }
  }

  async submitNew(): Promise<void> {
    if (!this.pending) return;
    try {
      await this.send(this.pending);
    } catch (error) {
      this.serverProblem(error);
    }
  }

  async supportInstead(reference: string): Promise<void> {
    this.phase = 'submitting';
    this.announce(this.strings.submitting);
    try {
      const answer = await this.api!.support(reference);
      this.finish({ reference: answer.reference, supported: true, supportCount: answer.support_count });
    } catch (error) {
      this.serverProblem(error);
    }
  }

  private async send(body: Submission): Promise<void> {
    this.phase = 'submitting';
    this.announce(this.strings.submitting);
    const created = await this.api!.submit(body);
    this.finish({ reference: created.reference, supported: false });
  }

  private finish(result: { reference: string; supported: boolean; supportCount?: number }): void {
    this.result = result;
    this.pending = null;
    this.phase = 'done';
    this.announce('');
    this.dispatchEvent(new CustomEvent(result.supported ? 'platform-report-supported' : 'platform-report-submitted', {
      detail: { reference: result.reference, tracking_url: this.api!.trackingUrl(result.reference) }, bubbles: true, composed: true,
    }));
    this.focusOn('.confirmation h3');
  }

  private serverProblem(error: unknown): void {
    const s = this.strings;
    const listed = error instanceof ReportError && error.errors.length
      ? error.errors.map((e) => ({ field: e.field ?? e.path ?? '', message: e.message ? `${e.field ?? e.path ?? ''}: ${e.message}` : error.message }))
      : [{ field: '', message: error instanceof ReportError && error.code === 'OUTSIDE_SERVICE_AREA' ? s.outsideArea : this.describe(error) }];
    this.announce('');
    this.showProblems(listed);
  }

  /** Another report: the form emptied, the type and map kept. */
  reset(): void {
    this.title = this.description = this.address = '';
    this.values = {};
    this.point = null;
    this.photos = [];
    this.similar = [];
    this.result = null;
    this.problems = [];
    this.phase = 'form';
    this.status = '';
    this.map?.clear();
    this.formio?.destroy();
    this.formio = null;
    this.formioFor = null;
    this.focusOn('#report-title');
  }

  /** Focus moves to what just appeared (the duplicates, the confirmation). */
  focusOn(selector: string): void {
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>(selector)?.focus());
  }

  render() {
    return renderReport(this);
  }
}

export function definePlatformReport(name = 'platform-report'): void {
  if (!customElements.get(name)) customElements.define(name, class extends PlatformReportElement {});
}

declare global {
  interface HTMLElementTagNameMap { 'platform-report': PlatformReportElement }
}
