import type { Context, Hono, MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import { discardAuditLog } from '../../governance/audit/audit-log.js';
import { requireAuth } from '../../governance/auth/require-auth.js';
import { isScope, loopbackPrincipal, type Scope } from '../../governance/auth/scopes.js';
import { readJson } from './error-handler.js';
import type { RouteDeps, RouteEntry, TableEntry } from './route-types.js';

/** The middleware that enforces a table entry's `access`, or null when it has none to enforce. */
export type RouteGuard = (entry: Pick<TableEntry, 'access'>) => MiddlewareHandler | null;

/**
 * The one guard of the app: a bearer token with the entry's scope when auth is on (the app's one
 * failure limiter, shared with the login and takeover routes), the loopback principal when off. `public` and
 * `dashboard-session` (the dashboard's own cookie login) pass through.
 */
export function createRouteGuard(deps: RouteDeps): RouteGuard {
  const audit = deps.audit ?? discardAuditLog;
  const auth = deps.auth;
  const bearer = auth
    ? requireAuth({ verifier: auth.verifier, audit, failures: deps.refusals })
    : null;
  const loopback = createMiddleware(async function loopbackCaller(c, next) {
    c.set('principal', loopbackPrincipal);
    await next();
  });
  const guards = new Map<Scope, MiddlewareHandler>();
  return (entry) => {
    if (!isScope(entry.access)) return null;
    const scope = entry.access;
    if (!guards.has(scope)) guards.set(scope, bearer ? bearer(scope) : loopback);
    return guards.get(scope) ?? null;
  };
}

/** Parses the entry's query and body before its handler; path params when the handler asks. */
function handlerOf(entry: RouteEntry, deps: RouteDeps) {
  return async function routeHandler(c: Context) {
    const query = entry.query ? entry.query.parse(c.req.query()) : undefined;
    const body = entry.body ? entry.body.parse(await readJson(c)) : undefined;
    const params = () => (entry.params ? entry.params.parse(c.req.param()) : undefined);
    return entry.handle(c, { params, query, body }, deps);
  };
}

/**
 * Mounts every entry of `table` on `app` behind the guard for its access; entries whose optional
 * dependency (`needs`) is absent are left out. Without `guard` nothing is enforced (for tests
 * that mount a slice of the table bare).
 */
export function mountRouteTable(
  app: Hono,
  table: readonly TableEntry[],
  deps: RouteDeps,
  guard: RouteGuard = () => null,
): void {
  for (const entry of table) {
    if (entry.needs && !deps[entry.needs]) continue;
    const guarded = guard(entry);
    if (entry.kind === 'mount') {
      // `/mcp/*` also matches `/mcp` itself: the guard covers the mount point and all below it.
      if (guarded) app.use(`${entry.path}/*`, guarded);
      app.route(entry.path, entry.create(deps));
    } else if (guarded) app.on(entry.method, entry.path, guarded, handlerOf(entry, deps));
    else app.on(entry.method, entry.path, handlerOf(entry, deps));
  }
}
