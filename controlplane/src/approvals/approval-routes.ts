import { Hono } from 'hono';
import { actorOf } from '../auth/scopes.js';
import { NotFoundError } from '../errors.js';
import { readJson } from '../http/error-handler.js';
import {
  type ApprovalView,
  approvalAnswerSchema,
  approvalListQuerySchema,
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

/** `/v1/approvals` (admin scope): list, inspect, and answer `{decision: approve|deny}`. */
export function createApprovalRoutes(approvals: ApprovalService) {
  return new Hono()
    .get('/', (c) => {
      const query = approvalListQuerySchema.parse(c.req.query());
      return c.json({ approvals: approvals.list(query).map(approvalView) });
    })
    .get('/:id', (c) => {
      const record = approvals.get(c.req.param('id'));
      if (!record) throw new NotFoundError(`no approval ${c.req.param('id')}`);
      return c.json(approvalView(record));
    })
    .post('/:id', async (c) => {
      const { decision } = approvalAnswerSchema.parse(await readJson(c));
      const record = approvals.answer(
        c.req.param('id'),
        decision,
        `api:${actorOf(c.get('principal'))}`,
      );
      return c.json(approvalView(record));
    });
}
