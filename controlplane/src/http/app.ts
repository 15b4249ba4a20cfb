import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { Logger } from 'pino';
import { createApprovalRoutes } from '../approvals/approval-routes.js';
import type { ApprovalService } from '../approvals/approval-service.js';
import { type AuditLog, discardAuditLog } from '../audit/audit-log.js';
import type { TokenVerifier } from '../auth/api-tokens.js';
import { createAuthFailureLimiter } from '../auth/auth-failure-limiter.js';
import { runAs } from '../auth/request-principal.js';
import { requireAuth } from '../auth/require-auth.js';
import { hasScope, loopbackPrincipal } from '../auth/scopes.js';
import { faviconSvg } from '../dashboard/assets.js';
import { createDashboardRoutes, type DashboardOptions } from '../dashboard/dashboard-routes.js';
import { createMcpRoutes } from '../mcp/http-routes.js';
import type { TaskRepository } from '../store/task-repository.js';
import type { TaskService } from '../tasks/task-service.js';
import type { WaitService } from '../wait/wait-service.js';
import { closeUnreadBodies, DEFAULT_MAX_BODY_BYTES, requestBodyLimit } from './body-limit.js';
import { createErrorHandler } from './error-handler.js';
import { buildOpenApiDocument } from './openapi.js';
import { createTaskRoutes } from './task-routes.js';
import { createWaitRoutes } from './wait-routes.js';

export interface AppDeps {
  tasks: TaskService;
  repository: TaskRepository;
  logger: Logger;
  /** Progress total for MCP calls that set no max_steps. */
  defaultMaxSteps: number;
  /** What /health reports about the configured model and browser, to admin tokens only. */
  describe: () => { model: { name: string; replay: boolean }; jail: { url: string } };
  /**
   * Bearer-token auth for `/v1/*` and `/mcp`; absent = off (the server then binds loopback only).
   * `failures`: failed requests per client address and window before 429 (`config.authFailures`).
   */
  auth?: { verifier: TokenVerifier; failures?: { limit: number; windowMs: number } } | null;
  /** Where auth failures (and, through the routes, other decisions) are recorded. */
  audit?: AuditLog;
  /** Operator approvals answerable at `/v1/approvals` (admin scope); not mounted when absent. */
  approvals?: ApprovalService | undefined;
  /** The admin dashboard at `/dashboard` (own cookie login); not mounted when absent. */
  dashboard?: DashboardOptions | undefined;
  /** `/v1/waits` on the controlplane's browser (docs/waits.md); not mounted when absent. */
  waits?: WaitService | undefined;
  /** Bound on every request body (413 past it); default 1 MiB. */
  maxBodyBytes?: number | undefined;
}

/** The controlplane HTTP app. Never listens; `main.ts` serves it. */
export function createApp(deps: AppDeps): Hono {
  const app = new Hono();
  app.onError(createErrorHandler(deps.logger));
  // Before every route (dashboard login, /mcp, /v1/*) and before auth: unauthenticated callers
  // are the ones most likely to send a huge body.
  app.use('*', closeUnreadBodies());
  app.use('*', requestBodyLimit({ maxBytes: deps.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES }));
  app.notFound((c) =>
    c.json(
      { error: { code: 'NOT_FOUND', message: `no route ${c.req.method} ${c.req.path}` } },
      404,
    ),
  );
  // Public: status only. The model and browser details (internal URLs) need an admin token.
  app.get('/health', async (c) => {
    const principal = await deps.auth?.verifier
      .verify(c.req.header('authorization'))
      .catch(() => undefined);
    const admin = principal !== undefined && hasScope(principal, 'admin');
    return c.json(admin ? { status: 'ok', ...deps.describe() } : { status: 'ok' });
  });
  const audit = deps.audit ?? discardAuditLog;
  const guard = deps.auth
    ? requireAuth({
        verifier: deps.auth.verifier,
        audit,
        failures: createAuthFailureLimiter({
          audit,
          ...(deps.auth.failures ?? { limit: 30, windowMs: 60_000 }),
          onError: (error) => deps.logger.error({ err: error }, 'auth-failed summary not audited'),
        }),
      })
    : createMiddleware(async function loopbackCaller(c, next) {
        c.set('principal', loopbackPrincipal);
        await runAs(loopbackPrincipal, next);
      });
  for (const path of ['/v1/*', '/mcp', '/mcp/*']) app.use(path, guard);
  const openapi = buildOpenApiDocument('0.1.0');
  app.get('/openapi.json', (c) => c.json(openapi));
  app.get('/favicon.ico', (c) =>
    c.body(faviconSvg, 200, { 'content-type': 'image/svg+xml', 'cache-control': 'max-age=86400' }),
  );
  app.route('/v1/tasks', createTaskRoutes(deps));
  if (deps.approvals) app.route('/v1/approvals', createApprovalRoutes(deps.approvals));
  if (deps.waits) app.route('/v1/waits', createWaitRoutes(deps.waits));
  app.route(
    '/mcp',
    createMcpRoutes({
      tasks: deps.tasks,
      logger: deps.logger,
      defaultMaxSteps: deps.defaultMaxSteps,
    }),
  );
  if (deps.dashboard) {
    const { tasks, repository, logger } = deps;
    app.route(
      '/dashboard',
      createDashboardRoutes({ ...deps.dashboard, tasks, repository, logger }),
    );
  }
  return app;
}
