import { sessionOriginSchema } from '@clawdie/kit/jail-api';
import type { Context } from 'hono';
import { z } from 'zod';
import type { Principal } from '../../governance/auth/scopes.js';
import { type RouteDeps, type RouteEntry, route } from '../../ingress/http/route-types.js';
import type { SessionProfileService } from './session-profile-service.js';
import { sessionView, sessionViewSchema } from './session-view.js';

export const saveSessionBodySchema = z.strictObject({
  task_id: z.string().min(1).max(200).describe('The running task whose browser is saved.'),
  name: z.string().min(1).max(64).describe('Profile name (letters, digits, ., _, -).'),
  origins: z.array(sessionOriginSchema).min(1).max(20).describe('Origins to capture.'),
  ttl_s: z
    .number()
    .int()
    .min(60)
    .max(365 * 86_400)
    .optional()
    .describe('Lifetime in seconds.'),
});

const nameParams = z.object({ name: z.string().describe('session profile name') });
const tenantQuery = z.object({
  tenant: z.string().min(1).max(100).optional().describe('Tenant (admin only; default: own)'),
});
const errors = {
  '400': { description: 'Invalid request', ref: 'Error' },
  '403': { description: 'Needs the operate or admin scope', ref: 'Error' },
  '404': { description: 'No such task or profile (or another tenant’s)', ref: 'Error' },
};

const sessionsOf = (deps: RouteDeps): SessionProfileService => {
  if (!deps.sessions) throw new Error('session routes mounted without a session service');
  return deps.sessions;
};
const principalOf = (c: Context): Principal => {
  const principal = c.get('principal');
  if (!principal) throw new Error('session routes reached without a principal');
  return principal;
};

/** `/v1/sessions`: list (values never included), save from a live task's browser, revoke. */
export const sessionRoutes: RouteEntry[] = [
  route({
    method: 'GET',
    path: '/v1/sessions',
    access: 'operate',
    needs: 'sessions',
    summary: 'List saved session profiles (own tenant; admin: all), without values',
    responses: {
      '200': {
        description: 'Profiles',
        schema: z.object({ sessions: z.array(sessionViewSchema) }),
      },
      '403': errors['403'],
    },
    handle: async (c, _input, deps) => {
      const now = sessionsOf(deps).now();
      const list = await sessionsOf(deps).list(principalOf(c));
      return c.json({ sessions: list.map((meta) => sessionView(meta, now)) });
    },
  }),
  route({
    method: 'POST',
    path: '/v1/sessions',
    access: 'operate',
    needs: 'sessions',
    summary: "Save a running task's browser session as a named profile",
    body: saveSessionBodySchema,
    responses: {
      '201': { description: 'The saved profile', schema: sessionViewSchema },
      ...errors,
      '409': { description: 'The task holds no browser now', ref: 'Error' },
    },
    handle: async (c, { body }, deps) => {
      const meta = await sessionsOf(deps).saveSessionFromTask(
        { taskId: body.task_id, name: body.name, origins: body.origins, ttlS: body.ttl_s },
        principalOf(c),
      );
      return c.json(sessionView(meta, sessionsOf(deps).now()), 201);
    },
  }),
  route({
    method: 'DELETE',
    path: '/v1/sessions/:name',
    access: 'operate',
    needs: 'sessions',
    summary: 'Revoke a session profile (its data is wiped)',
    params: nameParams,
    query: tenantQuery,
    responses: {
      '200': { description: 'The revoked profile', schema: sessionViewSchema },
      ...errors,
    },
    handle: async (c, { params, query }, deps) => {
      const principal = principalOf(c);
      const meta = await sessionsOf(deps).revoke(
        params().name,
        principal,
        query.tenant ?? principal.tenant,
      );
      return c.json(sessionView(meta, sessionsOf(deps).now()));
    },
  }),
];
