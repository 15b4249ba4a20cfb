import { sameToken } from '@clawdie/kit/auth';
import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { hasScope, type Principal } from '../../governance/auth/scopes.js';
import type { AdminSessions } from './admin-sessions.js';

/**
 * Decides whether a presented token grants admin rights. The dashboard takes it as a dependency so
 * the auth module can swap the static token for a JWT check with the admin scope.
 */
export type VerifyAdmin = (token: string) => boolean | Promise<boolean>;

/** A VerifyAdmin accepting exactly `adminToken` (constant-time; the length does not leak). */
export function createStaticAdminVerifier(adminToken: string): VerifyAdmin {
  if (adminToken.length < 16) throw new Error('the admin token must have at least 16 characters');
  return sameToken(adminToken);
}

export const SESSION_COOKIE = 'clawdie_admin';

/** Who a dashboard session acts as when its request is forwarded to another replica. */
export const dashboardPrincipal: Principal = {
  tenant: 'default',
  subject: 'dashboard:admin',
  scopes: ['admin'],
  via: 'token',
};

/** Sets the HttpOnly, SameSite=Strict session cookie scoped to the dashboard. */
export async function startSession(
  c: Context,
  sessions: AdminSessions,
  ttlMs: number,
): Promise<void> {
  setCookie(c, SESSION_COOKIE, await sessions.create(), {
    path: '/dashboard',
    httpOnly: true,
    sameSite: 'Strict',
    secure: new URL(c.req.url).protocol === 'https:',
    maxAge: Math.floor(ttlMs / 1000),
  });
}

export async function endSession(c: Context, sessions: AdminSessions): Promise<void> {
  await sessions.end(getCookie(c, SESSION_COOKIE));
  deleteCookie(c, SESSION_COOKIE, { path: '/dashboard' });
}

/**
 * Lets a request through with a valid session cookie (or forwarded by a replica that checked its
 * own, `dashboardPrincipal`). Without one, a page GET is redirected to
 * the login page (303) and anything else gets 401. A cross-site write is refused with 403 even
 * with a cookie (SameSite=Strict already stops it in current browsers).
 */
export function requireAdmin(options: { sessions: AdminSessions }): MiddlewareHandler {
  return async function requireAdminSession(c, next) {
    const site = c.req.header('sec-fetch-site');
    if (c.req.method !== 'GET' && site && site !== 'same-origin' && site !== 'none') {
      return c.text('cross-site request refused', 403);
    }
    if (await options.sessions.valid(getCookie(c, SESSION_COOKIE))) return next();
    // Another replica checked its admin session and forwarded the request (signature verified).
    const forwarded = c.get('forwarded')?.principal;
    if (forwarded && hasScope(forwarded, 'admin')) return next();
    const wantsPage =
      c.req.method === 'GET' && (c.req.header('accept') ?? '').includes('text/html');
    if (!wantsPage) return c.text('admin login required', 401);
    const url = new URL(c.req.url);
    const target = encodeURIComponent(`${url.pathname}${url.search}`);
    return c.redirect(`/dashboard/login?next=${target}`, 303);
  };
}

/** Only a dashboard path may be a post-login target (no open redirect). */
export function safeNext(next: string | undefined): string {
  return next && /^\/dashboard(\/|$|\?)/.test(next) && !next.includes('//') ? next : '/dashboard';
}
