// GraphQL: form submissions (a Relay connection, newest first, filtered by
// use case, hydration status and date) and one submission with the model and
// id of the object it hydrated. Access as REST's GET
// /api/admin/forms/submissions[/{id}]: a tenant admin (payloads hold what
// citizens typed); API keys get FORBIDDEN.
import { badInput, type ConnectionArgs, decodeCursor, type GraphqlContext, isUuid, pageSize, requireAdmin, toConnection } from 'agent-platform/sdk';
import type { AdminSubmissionsService } from './services/admin-submissions.ts';
import type { SubmissionRow } from './store/submissions.ts';

export const typeDefs = /* GraphQL */ `
  enum FormHydrationStatus {
    HYDRATED
    FAILED
  }

  "An immutable form submission, pinned to the form version it was validated against."
  type FormSubmission {
    id: ID!
    useCaseId: ID!
    formDefinitionId: ID!
    formVersion: Int!
    "The stored payload (file references carry file_id); redacted values read \\"[redacted]\\"."
    payload: JSON!
    municipality: String
    "The submitting user's subject; null for an anonymous submission."
    submittedBy: String
    createdAt: DateTime!
    redactedAt: DateTime
    "The status of the latest hydration attempt."
    hydrationStatus: FormHydrationStatus!
    hydrationAttempts: Int!
    "The model of the object the submission created (latest successful attempt)."
    hydratedModel: String
    "The id of that object."
    hydratedObjectId: String
  }

  type FormSubmissionEdge {
    node: FormSubmission!
    cursor: String!
  }

  type FormSubmissionConnection {
    edges: [FormSubmissionEdge!]!
    pageInfo: PageInfo!
  }

  extend type Query {
    "Form submissions of the tenant, newest first."
    formSubmissions(useCaseId: ID, hydrationStatus: FormHydrationStatus, from: DateTime, to: DateTime, first: Int, after: String): FormSubmissionConnection!
    formSubmission(id: ID!): FormSubmission
  }
`;

interface SubmissionsArgs extends ConnectionArgs {
  useCaseId?: string | null;
  hydrationStatus?: 'HYDRATED' | 'FAILED' | null;
  from?: Date | string | null;
  to?: Date | string | null;
}

function date(value: Date | string | null | undefined, name: string): Date | undefined {
  if (value === null || value === undefined) return undefined;
  const parsed = new Date(value);
  if (Number.isNaN(parsed.getTime())) throw badInput(`${name} is not a date`);
  return parsed;
}

export function resolvers(submissions: AdminSubmissionsService) {
  return {
    Query: {
      async formSubmissions(_: unknown, args: SubmissionsArgs, context: GraphqlContext) {
        const tenantId = requireAdmin(context);
        const size = pageSize(args);
        const after = decodeCursor<string>(args.after);
        if (after !== undefined && (typeof after !== 'string' || !/^\d{1,18}$/.test(after))) throw badInput('Malformed cursor');
        if (args.useCaseId && !isUuid(args.useCaseId)) throw badInput('useCaseId is not a UUID');
        const filter = {
          useCaseId: args.useCaseId ?? undefined,
          hydrationStatus: args.hydrationStatus ? (args.hydrationStatus.toLowerCase() as 'hydrated' | 'failed') : undefined,
          from: date(args.from, 'from'),
          to: date(args.to, 'to'),
        };
        const rows = await submissions.after(tenantId, filter, after, size + 1);
        return toConnection(rows, size, (row) => String(row.seq), Boolean(args.after));
      },
      formSubmission(_: unknown, args: { id: string }, context: GraphqlContext) {
        const tenantId = requireAdmin(context);
        return isUuid(args.id) ? submissions.find(tenantId, args.id) : null;
      },
    },
    FormSubmission: {
      useCaseId: (row: SubmissionRow) => row.use_case_id,
      formDefinitionId: (row: SubmissionRow) => row.definition_id,
      formVersion: (row: SubmissionRow) => row.form_version,
      payload: (row: SubmissionRow) => row.payload_json,
      submittedBy: (row: SubmissionRow) => row.submitted_by,
      createdAt: (row: SubmissionRow) => row.created_at,
      redactedAt: (row: SubmissionRow) => row.redacted_at,
      hydrationStatus: (row: SubmissionRow) => (row.hydration_status ?? 'failed').toUpperCase(),
      hydrationAttempts: (row: SubmissionRow) => row.attempts ?? 0,
      hydratedModel: (row: SubmissionRow) => row.target_model,
      hydratedObjectId: (row: SubmissionRow) => row.object_id,
    },
  };
}
