import type { Context, Hono, MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import { discardAuditLog } from '../../governance/audit/audit-log.js';
import { requireAuth } from '../../governance/auth/require-auth.js';
import { hasScope, isScope, loopbackPrincipal, type Scope } from '../../governance/auth/scopes.js';
import { readJson } from './error-handler.js';
import type { RouteDeps, RouteEntry, TableEntry } from './route-types.js';

/** The middleware that enforces a table entry's `access`, or null when it has none to enforce. */
export type RouteGuard = (entry: Pick<TableEntry, 'access'>) => MiddlewareHandler | null;

/**
 * The one guard of the app: a bearer token with the entry's scope when auth is on (the app's one
 * failure limiter, shared with the login and takeover routes), the loopback principal when off. `public` and
 * `dashboard-session` (the dashboard's own cookie login) pass through. A request another replica
 * forwarded (verified by `acceptForwarded`) acts as the principal that replica authorized.
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
  const guardOf = (scope: Scope): MiddlewareHandler => {
    const own = bearer ? bearer(scope) : loopback;
    return async function guardRoute(c, next) {
      const forwarded = c.get('forwarded');
      if (!forwarded) return own(c, next);
      if (!forwarded.principal || !hasScope(forwarded.principal, scope)) {
        const message = `the forwarded request carries no principal with the ${scope} scope`;
        return c.json({ error: { code: 'SCOPE_MISSING', message } }, 403);
      }
      c.set('principal', forwarded.principal);
      await next();
      return undefined;
    };
  };
  return (entry) => {
    if (!isScope(entry.access)) return null;
    const scope = entry.access;
    if (!guards.has(scope)) guards.set(scope, guardOf(scope));
    return guards.get(scope) ?? null;
  };
}

/** The caller the guard set (every forwarded REST route has a scope guard). */
const principalOf = (c: Context) => c.get('principal') ?? null;

/** The route's handler behind its forward: run only when the forward handles it here. */
function forwardedFirst(forward: MiddlewareHandler, handler: (c: Context) => Promise<Response>) {
  return async function forwardedOrLocal(c: Context) {
    let local: Response | undefined;
    const forwarded = await forward(c, async () => {
      local = await handler(c);
    });
    return forwarded ?? local ?? c.res;
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
      continue;
    }
    // After the guard: only an authorized request goes to the replica that runs the task.
    const handler =
      entry.forward && deps.forward
        ? forwardedFirst(deps.forward.toOwner(entry.forward, principalOf), handlerOf(entry, deps))
        : handlerOf(entry, deps);
    if (guarded) app.on(entry.method, entry.path, guarded, handler);
    else app.on(entry.method, entry.path, handler);
  }
}
