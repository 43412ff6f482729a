// The report element's calls to the occurrences plugin's public routes: every
// call goes to `api-url`, names the tenant in X-Tenant-ID and sends no
// cookies or credentials (the element may run on another origin than the
// platform's).
export class ReportError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly errors: { field?: string; path?: string; message: string }[];
  constructor(status: number, message: string, code?: string, errors: { field?: string; path?: string; message: string }[] = []) {
    super(message);
    this.status = status;
    this.code = code;
    this.errors = errors;
  }
}

export interface DynamicField {
  key: string;
  label: string;
  type: 'text' | 'textarea' | 'number' | 'integer' | 'boolean' | 'date' | 'email' | 'select' | 'multiselect';
  required?: boolean;
  options?: (string | { value: string; label?: string })[];
}

export type FormSchema =
  | { version: 'v0'; dynamic_fields: DynamicField[] }
  | { version: 'v1'; format: 'FORMIO'; schema: Record<string, unknown> };

export interface OccurrenceType { id: number; name: string; code: string; form_schema: FormSchema }

export interface SimilarReport { id: number; reference: string; title: string; state: string; distance_m: number; text_similarity: number; created_at: string }

export interface Submission {
  title: string;
  description?: string;
  occurrence_type: number;
  latitude: number;
  longitude: number;
  address?: string;
  reporter_name?: string;
  reporter_email?: string;
  reporter_phone?: string;
  dynamic_fields?: Record<string, unknown>;
  attachments?: string[];
}

export type GeoJsonArea = { type: 'Polygon'; coordinates: number[][][] } | { type: 'MultiPolygon'; coordinates: number[][][][] };

export class ReportApi {
  readonly apiUrl: string;
  readonly tenant: string;
  constructor(apiUrl: string, tenant: string) {
    this.apiUrl = apiUrl.replace(/\/+$/, '');
    this.tenant = tenant;
  }

  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${this.apiUrl}${path}`, {
        method, credentials: 'omit',
        headers: { 'x-tenant-id': this.tenant, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      throw new ReportError(0, (error as Error).message, 'NETWORK');
    }
    const answer = await response.json().catch(() => ({})) as Record<string, any>;
    if (!response.ok) throw new ReportError(response.status, answer.message ?? response.statusText, answer.code, answer.errors ?? []);
    return answer as T;
  }

  types = () => this.request<{ items: OccurrenceType[] }>('GET', '/api/occurrence-types').then((r) => r.items);
  serviceArea = () => this.request<{ service_area: GeoJsonArea | null }>('GET', '/api/occurrences/service_area').then((r) => r.service_area);
  checkDuplicates = (body: Submission) =>
    this.request<{ has_duplicates: boolean; suggested_action: string; similar_reports: SimilarReport[] }>('POST', '/api/occurrences/check_duplicates', body);
  submit = (body: Submission) => this.request<{ id: number; reference: string; state: string }>('POST', '/api/occurrences/public_submit', body);
  support = (reference: string) =>
    this.request<{ reference: string; support_count: number; counted: boolean }>('POST', `/api/occurrences/${encodeURIComponent(reference)}/support`);

  /** The tracking page of a report (served by the platform). */
  trackingUrl = (reference: string) => `${this.apiUrl}/track/${encodeURIComponent(this.tenant)}/${encodeURIComponent(reference)}`;

  /** A photo to the forms plugin's anonymous upload: its file token. XMLHttpRequest, for the upload progress. */
  upload(file: File, onProgress: (fraction: number) => void, signal: AbortSignal): Promise<string> {
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', `${this.apiUrl}/api/forms/files`);
      xhr.withCredentials = false;
      xhr.setRequestHeader('x-tenant-id', this.tenant);
      xhr.upload.onprogress = (event) => { if (event.lengthComputable) onProgress(event.loaded / event.total); };
      xhr.onerror = () => reject(new ReportError(0, 'network error', 'NETWORK'));
      xhr.onabort = () => reject(new ReportError(0, 'aborted', 'ABORTED'));
      signal.addEventListener('abort', () => xhr.abort());
      xhr.onload = () => {
        let body: Record<string, any>;
        try { body = JSON.parse(xhr.responseText); } catch { body = {}; }
        if (xhr.status >= 200 && xhr.status < 300 && typeof body.file_token === 'string') resolve(body.file_token);
        else reject(new ReportError(xhr.status, body.message ?? xhr.statusText, body.code));
      };
      const form = new FormData();
      form.append('file', file, file.name);
      xhr.send(form);
    });
  }
}
