import { z } from 'zod';
import { NotFoundError } from '../../errors.js';
import { type RouteDeps, type RouteEntry, route } from '../../ingress/http/route-types.js';
import { actorOf } from '../auth/scopes.js';
import {
  type ApprovalView,
  approvalAnswerSchema,
  approvalListQuerySchema,
  approvalViewSchema,
} from './approval-schemas.js';
import type { ApprovalService } from './approval-service.js';
import type { ApprovalRecord } from './approval-types.js';

/** The API view of an approval (times as ISO strings); its shape is `approvalViewSchema`. */
export function approvalView(record: ApprovalRecord): ApprovalView {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    id: record.id,
    trace_id: record.taskId,
    tenant: record.tenant,
    kind: record.kind,
    reason: record.reason,
    detail: record.detail,
    status: record.status,
    requested_at: new Date(record.requestedAt).toISOString(),
    expires_at: new Date(record.expiresAt).toISOString(),
    answered_at: iso(record.answeredAt),
    answered_by: record.answeredBy,
  };
}

const approvalParams = z.object({ id: z.string().describe('approval id') });
const noApproval = { description: 'No such approval', ref: 'Error' };
const badRequest = { description: 'Invalid request; the message names the field', ref: 'Error' };
const approvalsOf = (deps: RouteDeps): ApprovalService => {
  if (!deps.approvals) throw new Error('approval routes mounted without an approval service');
  return deps.approvals;
};

/** `/v1/approvals` (admin scope): list, inspect, and answer `{decision: approve|deny}`. */
export const approvalRoutes: RouteEntry[] = [
  route({
    method: 'GET',
    path: '/v1/approvals',
    access: 'admin',
    needs: 'approvals',
    summary: 'List supervisor approvals, newest first',
    query: approvalListQuerySchema,
    responses: {
      '200': {
        description: 'Approvals',
        schema: z.object({ approvals: z.array(approvalViewSchema) }),
      },
      '400': badRequest,
    },
    handle: async (c, { query }, deps) =>
      c.json({ approvals: (await approvalsOf(deps).list(query)).map(approvalView) }),
  }),
  route({
    method: 'GET',
    path: '/v1/approvals/:id',
    access: 'admin',
    needs: 'approvals',
    summary: 'One approval',
    params: approvalParams,
    responses: { '200': { description: 'The approval', ref: 'Approval' }, '404': noApproval },
    handle: async (c, _input, deps) => {
      const record = await approvalsOf(deps).get(c.req.param('id') ?? '');
      if (!record) throw new NotFoundError(`no approval ${c.req.param('id')}`);
      return c.json(approvalView(record));
    },
  }),
  route({
    method: 'POST',
    path: '/v1/approvals/:id',
    access: 'admin',
    needs: 'approvals',
    summary: 'Approve or deny a pending approval',
    params: approvalParams,
    body: approvalAnswerSchema,
    bodyRef: 'ApprovalAnswer',
    responses: {
      '200': { description: 'The answered approval', ref: 'Approval' },
      '400': badRequest,
      '404': noApproval,
      '409': { description: 'Already answered or expired', ref: 'Error' },
    },
    handle: async (c, { body }, deps) => {
      const record = await approvalsOf(deps).answer(
        c.req.param('id') ?? '',
        body.decision,
        `api:${actorOf(c.get('principal'))}`,
      );
      return c.json(approvalView(record));
    },
  }),
];
