import { Hono } from 'hono';
import { discardAuditLog } from '../../governance/audit/audit-log.js';
import { createAuthFailureLimiter } from '../../governance/auth/auth-failure-limiter.js';
import type { AppDeps } from './app-deps.js';
import { closeUnreadBodies, DEFAULT_MAX_BODY_BYTES, requestBodyLimit } from './body-limit.js';
import { clientAddressResolver } from './client-address.js';
import { createErrorHandler } from './error-handler.js';
import { createRouteGuard, mountRouteTable } from './mount-routes.js';
import { buildOpenApiDocument } from './openapi.js';
import { acceptForwarded } from './replica-forward/accept-forwarded.js';
import { routeTable, unknownApiScope } from './route-table.js';
import type { RouteDeps } from './route-types.js';

export type { AppDeps } from './app-deps.js';

/**
 * The controlplane HTTP app: the route table (`route-table.ts`) mounted behind the guard each
 * entry names. Never listens; `main.ts` serves it.
 */
export function createApp(deps: AppDeps): Hono {
  const app = new Hono();
  app.onError(createErrorHandler(deps.logger));
  // First: the client address every limiter and audit row uses (X-Forwarded-For only from a
  // configured proxy).
  app.use('*', clientAddressResolver(deps.trustedProxies ?? []));
  // Before every route (dashboard login, /mcp, /v1/*) and before auth: unauthenticated callers
  // are the ones most likely to send a huge body.
  app.use('*', closeUnreadBodies());
  app.use('*', requestBodyLimit({ maxBytes: deps.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES }));
  const refusals =
    deps.refusals ??
    createAuthFailureLimiter({
      audit: deps.audit ?? discardAuditLog,
      ...(deps.failures ?? { limit: 30, windowMs: 60_000 }),
      onError: (error) => deps.logger.error({ err: error }, 'auth-failed summary not audited'),
    });
  // Before every route: a request forwarded by another replica is verified (or refused) here.
  app.use('*', acceptForwarded(deps.forward?.verifier ?? null, refusals));
  const routeDeps: RouteDeps = { ...deps, refusals, openapi: buildOpenApiDocument('0.1.0') };
  const guard = createRouteGuard(routeDeps);
  // An unknown `/v1/` path needs the admin scope before it answers 404 (fail closed: no probing).
  const unknownApi = guard({ access: unknownApiScope });
  app.notFound(async (c) => {
    if (unknownApi && /^\/v1(\/|$)/.test(c.req.path)) {
      const refused = await unknownApi(c, async () => undefined);
      if (refused) return refused;
    }
    return c.json(
      { error: { code: 'NOT_FOUND', message: `no route ${c.req.method} ${c.req.path}` } },
      404,
    );
  });
  mountRouteTable(app, routeTable, routeDeps, guard);
  return app;
}
