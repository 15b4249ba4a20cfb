// REST side of takeover: an `operate` principal of the task's tenant (or an admin) gets a signed
// single-use link to the interactive live view, or hands back directly. Another tenant's task
// answers 404, like an unknown one.
import type { Context } from 'hono';
import { z } from 'zod';
import { NotFoundError } from '../../errors.js';
import { actorOf, type Principal, visibleTenant } from '../../governance/auth/scopes.js';
import { type RouteEntry, route } from '../../ingress/http/route-types.js';
import type { TakeoverAppDeps } from './takeover-app-deps.js';
import { TakeoverError } from './takeover-error.js';
import { handBackSchema } from './takeover-routes.js';

const params = z.object({ id: z.string().describe('trace_id') });
const errors = {
  '404': { description: 'No such task (or another tenant’s)', ref: 'Error' },
  '409': { description: 'The task is not waiting for a person', ref: 'Error' },
};

function principalOf(c: Context): Principal {
  const principal = c.get('principal');
  if (!principal) throw new Error('takeover routes reached without a principal');
  return principal;
}

async function activeTakeover(c: Context, deps: TakeoverAppDeps, id: string) {
  const task = await deps.repository.getTask(id, visibleTenant(principalOf(c)));
  if (!task) throw new NotFoundError(`no task with trace_id ${id}`);
  const active = deps.registry.get(task.id);
  if (!active)
    throw new TakeoverError('TAKEOVER_NOT_ACTIVE', 'the task is not waiting for a person');
  return active;
}

const takeoverOf = (deps: { takeover?: TakeoverAppDeps | undefined }) => {
  if (!deps.takeover) throw new Error('takeover routes mounted without their deps');
  return deps.takeover;
};

export const takeoverRestRoutes: RouteEntry[] = [
  route({
    method: 'POST',
    path: '/v1/tasks/:id/takeover',
    forward: 'owner',
    access: 'operate',
    needs: 'takeover',
    params,
    summary: 'A signed, single-use, short-lived link to take over a needs_user task’s browser',
    responses: {
      '200': {
        description: 'The link',
        schema: z.object({ url: z.string(), expires_at: z.number() }),
      },
      ...errors,
    },
    async handle(c, input, deps) {
      const takeover = takeoverOf(deps);
      const active = await activeTakeover(c, takeover, input.params().id);
      const user = actorOf(principalOf(c));
      const link = takeover.links.mint({ task: active.taskId, tenant: active.tenant, user });
      await takeover.audit.append({
        type: 'takeover-link-issued',
        actor: user,
        taskId: active.taskId,
        data: { via: 'rest', user, reason: active.reason, expires_at: link.expiresAt },
      });
      const base = takeover.publicUrl.replace(/\/+$/, '');
      const url = `${base}/takeover/${active.taskId}/open?t=${link.token}`;
      return c.json({ url, expires_at: link.expiresAt });
    },
  }),
  route({
    method: 'POST',
    path: '/v1/tasks/:id/hand-back',
    forward: 'owner',
    access: 'operate',
    needs: 'takeover',
    params,
    body: handBackSchema,
    summary: 'Ends a takeover: the loop resumes with the note ("the user completed: …")',
    responses: {
      '200': { description: 'Handed back', schema: z.object({ handed_back: z.literal(true) }) },
      ...errors,
    },
    async handle(c, input, deps) {
      const takeover = takeoverOf(deps);
      const active = await activeTakeover(c, takeover, input.params().id);
      const principal = principalOf(c);
      await takeover.onHandBack?.(active.taskId, principal, input.body.save_session);
      active.handBack({
        note: input.body.note ?? null,
        by: actorOf(principal),
        saveSession: input.body.save_session,
      });
      return c.json({ handed_back: true as const });
    },
  }),
];
