// Message templates: staff list them, see which apply to an
// occurrence, preview and apply them; staff admins create, change and delete them.
import { principalOf, tenantOf, type Request, type ServerRoute } from 'agent-platform/sdk';
import { staffTenant } from '../access.ts';
import type { PreviewInput, TemplatesService } from '../services/templates.ts';
import type { TemplateValues } from '../store/templates.ts';
import * as s from '../schemas.ts';

const tags = ['api', 'occurrences'];
const member = { tenant: 'required' } as const;
const admin = { tenant: 'required', role: 'admin' } as const;
const base = '/api/backoffice/templates';
const staffNote = 'Staff: a user of the tenant with the role staff or admin (403 ROLE_REQUIRED otherwise).';
const idOf = (request: Request) => request.params.id as unknown as number;

export function templateRoutes(templates: TemplatesService): ServerRoute[] {
  return [
    {
      method: 'GET', path: base,
      options: {
        auth: 'bearer', tags, plugins: { platform: member }, description: 'List message templates, with the variables they may use',
        notes: staffNote, response: { schema: s.templateList },
      },
      handler: (request) => templates.list(staffTenant(request)),
    },
    {
      method: 'POST', path: base,
      options: {
        auth: 'bearer', tags, plugins: { platform: admin }, description: 'Create a message template (staff admin)',
        notes: '400 TEMPLATE_INVALID for unbalanced braces or unknown variables; 409 TEMPLATE_NAME_TAKEN. send_on_enter: applied by itself whenever an occurrence of its types enters one of its states.',
        validate: { payload: s.templateBody }, response: { schema: s.template },
      },
      handler: async (request, h) => h.response(await templates.create(tenantOf(request), request.payload as TemplateValues)).code(201),
    },
    {
      method: 'GET', path: `${base}/for_occurrence`,
      options: {
        auth: 'bearer', tags, plugins: { platform: member }, description: 'The templates that apply to an occurrence (its type and state)',
        notes: staffNote, validate: { query: s.occurrenceQuery }, response: { schema: s.applicableTemplates },
      },
      handler: (request) => templates.forOccurrence(staffTenant(request), (request.query as { occurrence_id: number }).occurrence_id),
    },
    {
      method: 'POST', path: `${base}/preview`,
      options: {
        auth: 'bearer', tags, plugins: { platform: member },
        description: 'Render a stored template (template_id) or a draft (subject, body) for an occurrence: the text and the unknown variables; nothing is stored',
        notes: staffNote, validate: { payload: s.previewBody }, response: { schema: s.preview },
      },
      handler: (request) => templates.preview(staffTenant(request), request.payload as PreviewInput),
    },
    {
      method: 'POST', path: `${base}/apply`,
      options: {
        auth: 'bearer', tags, plugins: { platform: member },
        description: 'Apply a template to an occurrence: the message is recorded on its timeline, occurrence.message_sent is emitted, and an email one to a reporter with an address goes to the mail outbox',
        notes: `${staffNote} 409 TEMPLATE_NOT_APPLICABLE when the template is not for the occurrence's type or state.`,
        validate: { payload: s.applyBody }, response: { schema: s.message },
      },
      handler: async (request, h) => h.response(await templates.apply(staffTenant(request), request.payload as never, principalOf(request).sub)).code(201),
    },
    {
      method: 'GET', path: `${base}/{id}`,
      options: { auth: 'bearer', tags, plugins: { platform: member }, description: 'A message template', notes: staffNote, validate: { params: s.idParams }, response: { schema: s.template } },
      handler: (request) => templates.get(staffTenant(request), idOf(request)),
    },
    {
      method: 'PUT', path: `${base}/{id}`,
      options: {
        auth: 'bearer', tags, plugins: { platform: admin }, description: 'Replace a message template (staff admin)',
        validate: { params: s.idParams, payload: s.templateBody }, response: { schema: s.template },
      },
      handler: (request) => templates.update(tenantOf(request), idOf(request), request.payload as TemplateValues),
    },
    {
      method: 'DELETE', path: `${base}/{id}`,
      options: { auth: 'bearer', tags, plugins: { platform: admin }, description: 'Delete a message template (staff admin); recorded messages stay', validate: { params: s.idParams } },
      handler: async (request, h) => {
        await templates.remove(tenantOf(request), idOf(request));
        return h.response().code(204);
      },
    },
  ];
}
