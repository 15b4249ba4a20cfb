import { z } from 'zod';

/** `GET /v1/approvals` query. */
export const approvalListQuerySchema = z.strictObject({
  status: z.enum(['pending', 'approved', 'denied', 'expired']).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});

/** `POST /v1/approvals/:id` body. */
export const approvalAnswerSchema = z.strictObject({ decision: z.enum(['approve', 'deny']) });

const isoTime = z.string().describe('ISO 8601 time');

/** The API view of an approval (routes and OpenAPI). */
export const approvalViewSchema = z.object({
  id: z.string(),
  trace_id: z.string().nullable(),
  tenant: z.string(),
  kind: z.enum(['credential', 'navigation', 'action', 'call_user', 'model_safety', 'file_upload']),
  reason: z.string(),
  detail: z.record(z.string(), z.unknown()),
  status: z.enum(['pending', 'approved', 'denied', 'expired']),
  requested_at: isoTime,
  expires_at: isoTime,
  answered_at: isoTime.nullable(),
  answered_by: z.string().nullable().describe('`telegram:<user id>` or `api:<actor>`'),
});

export type ApprovalView = z.infer<typeof approvalViewSchema>;
