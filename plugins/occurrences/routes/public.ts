// The citizens' routes: public submission, the pre-submission duplicate
// check, supporting an existing report and the tenant's service area. No
// login: X-Tenant-ID names the tenant, each request spends a token of the
// rate limit (per client address and tenant) before anything is read.
import { clientAddress, type ServerRoute } from 'agent-platform/sdk';
import type { Intake, SubmissionInput } from '../services/intake.ts';
import type { SettingsService } from '../services/settings.ts';
import type { SupportsService } from '../services/supports.ts';
import * as s from '../schemas.ts';
import type { PublicTenant } from './public-caller.ts';
import type {} from '../../tenancy/api.ts';

const tags = ['api', 'occurrences'];
/** The citizens' routes answer CORS for the tenant's public origins (tenancy README). */
const plugins = { tenancy: { publicCors: 'header' } } as const;

export interface PublicServices {
  intake: Intake;
  settings: SettingsService;
  supports: SupportsService;
}

export function publicRoutes({ intake, settings, supports }: PublicServices, publicTenant: PublicTenant, trustProxy: boolean): ServerRoute[] {
  return [
    {
      method: 'POST', path: '/api/occurrences/public_submit',
      options: {
        auth: false, tags, plugins,
        description: 'Report an occurrence (public: X-Tenant-ID, no login): validated, checked for duplicates, created in the initial state',
        notes: [
          '201 {id, reference, state, created_at, possible_duplicates?}.',
          'attachments: file tokens of POST /api/forms/files (anonymous, X-Tenant-ID), consumed with the occurrence; 422 FILE_TOKEN_INVALID with errors [{path: "attachments[i]", message}] for a used, expired, unknown or another uploader\'s token.',
          '422 VALIDATION_FAILED with errors [{field, message}] (type, location, dynamic_fields against the type\'s form schema); 422 OUTSIDE_SERVICE_AREA.',
          '409 DUPLICATE_DETECTED with similar_reports when the type\'s duplicate_policy is reject; with warn the occurrence is created and possible_duplicates lists them.',
          '429 RATE_LIMITED with Retry-After past OCCURRENCES_PUBLIC_RATE_LIMIT per minute, address and tenant.',
          'CORS for the tenant\'s public origins (PUT /api/admin/public-origins); a browser\'s cross-origin request from another origin is 403 ORIGIN_NOT_ALLOWED.',
        ].join(' '),
        validate: { payload: s.submission }, response: { schema: s.submitted },
      },
      handler: async (request, h) => {
        const tenantId = await publicTenant(request);
        return h.response(await intake.submit(tenantId, request.payload as SubmissionInput, { source: 'public', submittedBy: null })).code(201);
      },
    },
    {
      method: 'POST', path: '/api/occurrences/check_duplicates',
      options: {
        auth: false, tags, plugins,
        description: 'Check a report for duplicates before submitting it (public: X-Tenant-ID, no login; nothing is stored)',
        notes: 'Same body as public_submit; CORS as public_submit (the tenant\'s public origins). Similar reports: same type, within the type\'s radius and window, not in a final state; ranked by distance and text similarity. No personal data.',
        validate: { payload: s.submission }, response: { schema: s.duplicateCheck },
      },
      handler: async (request) => intake.check(await publicTenant(request), request.payload as SubmissionInput),
    },
    {
      method: 'POST', path: '/api/occurrences/{reference}/support',
      options: {
        auth: false, tags, plugins,
        description: 'Support an existing report instead of filing a duplicate (public: X-Tenant-ID, no login)',
        notes: [
          '200 {reference, support_count, counted}: counted once per client address within OCCURRENCES_SUPPORT_WINDOW_HOURS; a repeat within the window answers counted: false and changes nothing.',
          '404 OCCURRENCE_NOT_FOUND; 409 OCCURRENCE_CLOSED for a report in a final state.',
          '429 RATE_LIMITED with Retry-After past OCCURRENCES_PUBLIC_RATE_LIMIT per minute, address and tenant.',
          'CORS as public_submit (the tenant\'s public origins).',
        ].join(' '),
        validate: { params: s.referenceParams }, response: { schema: s.supported },
      },
      handler: async (request) => {
        const tenantId = await publicTenant(request);
        return supports.support(tenantId, (request.params as { reference: string }).reference, clientAddress(request, trustProxy));
      },
    },
    {
      method: 'GET', path: '/api/occurrences/service_area',
      options: {
        auth: false, tags, plugins,
        description: 'The tenant\'s service area, for a reporting map (public: X-Tenant-ID, no login; rate limited)',
        notes: '{service_area}: a GeoJSON Polygon or MultiPolygon ([longitude, latitude]), or null when the tenant takes reports anywhere. A report outside it is refused (422 OUTSIDE_SERVICE_AREA). CORS as public_submit.',
        response: { schema: s.publicServiceArea },
      },
      handler: async (request) => settings.get(await publicTenant(request)),
    },
  ];
}
