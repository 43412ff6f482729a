// joi schemas shared by the routes, GraphQL inputs, the request_approval
// function and the service's own check of a new case.
import { Joi } from 'agent-platform/sdk';

const MAX_TIMEOUT_SECONDS = 30 * 24 * 3600;
const name = Joi.string().min(1).max(255).pattern(/^[^\u0000]+$/);

export const approvers = Joi.object({
  roles: Joi.array().items(name).max(100).description('Holders of any of these roles in the tenant may decide'),
  users: Joi.array().items(name).max(100).description('These users (by subject) may decide'),
}).label('Approvers').description('Who may decide: at least one role or user');

export const newCaseFields = {
  title: Joi.string().trim().min(1).max(500).pattern(/^[^\u0000]+$/).required(),
  description: Joi.string().max(10_000).allow('').pattern(/^[^\u0000]*$/),
  payload: Joi.any().description('What is to be approved (any JSON)'),
  approvers: approvers.description('Default: {roles: ["admin"]}'),
  quorum: Joi.number().integer().min(1).max(100).description('Approvals needed (default 1); one rejection rejects'),
  timeout_seconds: Joi.number().integer().min(1).max(MAX_TIMEOUT_SECONDS).description('Until the case expires (default 7 days)'),
};

export const newCase = Joi.object({
  ...newCaseFields,
  links: Joi.boolean().default(false).description('Also return one-time decision links for each approver known to the users directory'),
}).label('NewApprovalCase');

export const idParam = Joi.object({ id: Joi.string().guid().required() });

export const listQuery = Joi.object({
  status: Joi.string().valid('pending', 'approved', 'rejected', 'expired', 'cancelled'),
  source_type: Joi.string().valid('workflow', 'agent', 'api'),
  mine: Joi.boolean().default(false).description('Only cases the caller may decide (an admin otherwise sees all)'),
  skip: Joi.number().integer().min(0).max(1_000_000).default(0),
  limit: Joi.number().integer().min(1).max(500).default(50),
});

export const decision = Joi.object({
  decision: Joi.string().valid('approve', 'reject').required(),
  comment: Joi.string().max(2000).allow('', null).pattern(/^[^\u0000]*$/),
}).label('ApprovalDecisionInput');

export const linkParam = Joi.object({ token: Joi.string().max(2000).pattern(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/).required() });
export const linkForm = Joi.object({ comment: Joi.string().max(2000).allow('').pattern(/^[^\u0000]*$/) }).allow(null);

const decisionView = Joi.object({
  by: Joi.string(), decision: Joi.string().valid('approve', 'reject'), comment: Joi.string().allow(null),
  decided_at: Joi.date(), via: Joi.string().valid('api', 'link', 'cli'),
}).label('ApprovalDecision');

export const caseView = Joi.object({
  id: Joi.string().guid(),
  title: Joi.string(),
  description: Joi.string().allow(''),
  payload: Joi.any(),
  source: Joi.object({ type: Joi.string().valid('workflow', 'agent', 'api') }).unknown(true).label('ApprovalSource'),
  approvers,
  quorum: Joi.number().integer(),
  status: Joi.string().valid('pending', 'approved', 'rejected', 'expired', 'cancelled'),
  decisions: Joi.array().items(decisionView),
  requested_by: Joi.string(),
  expires_at: Joi.date(),
  created_at: Joi.date(),
  resolved_at: Joi.date().allow(null),
}).label('ApprovalCase');

export const linkView = Joi.object({
  approver: Joi.string(), approve_url: Joi.string(), reject_url: Joi.string(),
}).label('ApprovalLinks');

export const createdView = caseView.keys({ links: Joi.array().items(linkView) }).label('CreatedApprovalCase');

export const caseList = Joi.object({
  items: Joi.array().items(caseView), total: Joi.number().integer(), skip: Joi.number().integer(), limit: Joi.number().integer(),
}).label('ApprovalCaseList');
