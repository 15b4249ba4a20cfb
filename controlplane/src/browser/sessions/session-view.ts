import { z } from 'zod';
import type { SessionProfileMeta } from '../../platform/store/session-profile-repository.js';

/** A session profile as the API shows it: metadata only, never a cookie or storage value. */
export const sessionViewSchema = z.object({
  name: z.string(),
  tenant: z.string(),
  origins: z.array(z.string()),
  cookie_count: z.number().int(),
  source_task: z.string().nullable(),
  created_by: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
  revoked_at: z.string().nullable(),
  state: z.enum(['active', 'expired', 'revoked']),
});
export type SessionView = z.infer<typeof sessionViewSchema>;

export function sessionView(meta: SessionProfileMeta, now: number): SessionView {
  const iso = (ms: number) => new Date(ms).toISOString();
  const state = meta.revokedAt !== null ? 'revoked' : meta.expiresAt <= now ? 'expired' : 'active';
  return {
    name: meta.name,
    tenant: meta.tenant,
    origins: meta.origins,
    cookie_count: meta.cookieCount,
    source_task: meta.sourceTask,
    created_by: meta.createdBy,
    created_at: iso(meta.createdAt),
    expires_at: iso(meta.expiresAt),
    revoked_at: meta.revokedAt === null ? null : iso(meta.revokedAt),
    state,
  };
}
