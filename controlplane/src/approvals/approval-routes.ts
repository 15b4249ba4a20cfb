import { Hono } from 'hono';
import { z } from 'zod';
import { actorOf } from '../auth/scopes.js';
import { NotFoundError } from '../errors.js';
import { readJson } from '../http/error-handler.js';
import type { ApprovalService } from './approval-service.js';
import type { ApprovalRecord } from './approval-types.js';

const listQuery = z.strictObject({
  status: z.enum(['pending', 'approved', 'denied', 'expired']).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});
const answerBody = z.strictObject({ decision: z.enum(['approve', 'deny']) });

/** The API view of an approval (times as ISO strings). */
export function approvalView(record: ApprovalRecord) {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    id: record.id,
    trace_id: record.taskId,
    tenant: record.tenant,
    kind: record.kind,
    reason: record.reason,
    detail: record.detail,
    status: record.status,
    requested_at: iso(record.requestedAt),
    expires_at: iso(record.expiresAt),
    answered_at: iso(record.answeredAt),
    answered_by: record.answeredBy,
  };
}

/** `/v1/approvals` (admin scope): list, inspect, and answer `{decision: approve|deny}`. */
export function createApprovalRoutes(approvals: ApprovalService) {
  return new Hono()
    .get('/', (c) => {
      const query = listQuery.parse(c.req.query());
      return c.json({ approvals: approvals.list(query).map(approvalView) });
    })
    .get('/:id', (c) => {
      const record = approvals.get(c.req.param('id'));
      if (!record) throw new NotFoundError(`no approval ${c.req.param('id')}`);
      return c.json(approvalView(record));
    })
    .post('/:id', async (c) => {
      const { decision } = answerBody.parse(await readJson(c));
      const record = approvals.answer(
        c.req.param('id'),
        decision,
        `api:${actorOf(c.get('principal'))}`,
      );
      return c.json(approvalView(record));
    });
}
