// REST routes of stored submissions and previews (tenant admins): reads,
// file download, rehydration, redaction, preview. Submissions are never
// updated or deleted through the API; redaction is the one recorded change.
import { principalOf, tenantOf, type ServerRoute } from 'agent-platform/sdk';
import type { AdminSubmissionsService } from '../services/admin-submissions.ts';
import type { SubmissionsService } from '../services/submissions.ts';
import * as s from '../schemas.ts';

const admin = { tenant: 'required', role: 'admin' } as const;
const tags = ['api', 'forms'];
const base = '/api/admin/forms/submissions';

interface SubmissionQuery {
  skip: number;
  limit: number;
  use_case_id?: string;
  from?: Date;
  to?: Date;
  hydration_status?: 'hydrated' | 'failed';
}

export function submissionRoutes(submissions: SubmissionsService, admins: AdminSubmissionsService): ServerRoute[] {
  return [
    {
      method: 'POST', path: '/api/admin/forms/use-cases/{id}/preview',
      options: {
        auth: 'bearer', tags, description: 'Validate a payload and run the target\'s hydrate in a transaction that is rolled back: the object it would create; nothing is kept',
        notes: 'File tokens are checked, not consumed. Errors as for a submission (422); a failure of the hydration stage emits form.hydration_failed (preview: true).',
        plugins: { platform: admin }, validate: { params: s.idParams, payload: s.previewBody }, response: { schema: s.preview },
      },
      handler: async (request) => ({
        ...(await submissions.preview(tenantOf(request), request.params.id as string, { sub: principalOf(request).sub }, request.payload as never)),
        preview: true,
      }),
    },
    {
      method: 'GET', path: base,
      options: {
        auth: 'bearer', tags, description: 'List submissions, newest first; filter by use case, date and hydration status',
        plugins: { platform: admin }, validate: { query: s.submissionQuery }, response: { schema: s.listOf(s.submissionSummary, 'FormSubmissionList') },
      },
      handler: async (request) => {
        const q = request.query as unknown as SubmissionQuery;
        const filter = { useCaseId: q.use_case_id, from: q.from, to: q.to, hydrationStatus: q.hydration_status };
        return { ...(await admins.list(tenantOf(request), filter, q.skip, q.limit)), skip: q.skip, limit: q.limit };
      },
    },
    {
      method: 'GET', path: `${base}/{id}`,
      options: {
        auth: 'bearer', tags, description: 'A submission: its pinned form version, payload, files, hydration attempts and redactions',
        plugins: { platform: admin }, validate: { params: s.idParams }, response: { schema: s.submission },
      },
      handler: (request) => admins.get(tenantOf(request), request.params.id as string),
    },
    {
      method: 'GET', path: `${base}/{id}/files/{file_id}`,
      options: {
        auth: 'bearer', tags, description: 'Download a file of a submission (empty once redacted)',
        plugins: { platform: admin }, validate: { params: s.fileParams },
      },
      handler: async (request, h) => {
        const file = await admins.file(tenantOf(request), request.params.id as string, request.params.file_id as string);
        const name = encodeURIComponent(file.name);
        return h.response(file.content).type(file.content_type)
          .header('content-disposition', `attachment; filename*=UTF-8''${name}`).header('x-content-type-options', 'nosniff');
      },
    },
    {
      method: 'POST', path: `${base}/{id}/rehydrate`,
      options: {
        auth: 'bearer', tags, description: 'Run the target again on the stored payload (current bindings): a new hydration attempt, recorded hydrated or failed',
        plugins: { platform: admin }, validate: { params: s.idParams }, response: { schema: s.attempt },
      },
      handler: (request) => admins.rehydrate(tenantOf(request), request.params.id as string, principalOf(request).sub),
    },
    {
      method: 'POST', path: `${base}/{id}/redact`,
      options: {
        auth: 'bearer', tags, description: 'Redact a submission: the named payload fields and every file\'s name and bytes become "[redacted]"; recorded (who, when, why, what)',
        plugins: { platform: admin }, validate: { params: s.idParams, payload: s.redactBody }, response: { schema: s.submission },
      },
      handler: (request) => admins.redact(tenantOf(request), request.params.id as string, request.payload as never, principalOf(request).sub),
    },
  ];
}
