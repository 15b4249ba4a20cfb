import { Hono } from 'hono';
import { html } from 'hono/html';
import type { AuthFailureLimiter } from '../../governance/auth/auth-failure-limiter.js';
import { clientAddress } from '../http/client-address.js';
import { readForm } from '../http/error-handler.js';
import { endSession, safeNext, startSession, type VerifyAdmin } from './admin-auth.js';
import type { AdminSessions } from './admin-sessions.js';
import { barePage, pageHeaders } from './layout.js';

function loginPage(next: string, failed: 'bad-token' | 'throttled' | null) {
  return barePage(
    'Log in',
    html`<div class="login card">
<h1>Clawdie dashboard</h1>
<form method="post" action="/dashboard/login">
<input type="hidden" name="next" value="${next}">
<label for="token">Admin token<input id="token" name="token" type="password" autocomplete="current-password" required autofocus></label>
${failed === 'bad-token' ? html`<p class="error-text" role="alert">That token is not an admin token.</p>` : ''}
${failed === 'throttled' ? html`<p class="error-text" role="alert">Too many failed logins from this address: wait a minute.</p>` : ''}
<button type="submit">Log in</button>
</form>
</div>`,
  );
}

/** `GET/POST /login` and `POST /logout`; a good token starts a session cookie. */
export function createLoginRoutes(options: {
  verifyAdmin: (token: string) => ReturnType<VerifyAdmin>;
  sessions: AdminSessions;
  ttlMs: number;
  /** Failed logins per client address: audited per window, 429 past the limit. */
  failures?: AuthFailureLimiter | undefined;
}) {
  return new Hono()
    .get('/login', (c) => c.html(loginPage(safeNext(c.req.query('next')), null), 200, pageHeaders))
    .post('/login', async (c) => {
      const form = await readForm(c);
      const token = typeof form.token === 'string' ? form.token.trim() : '';
      const next = safeNext(typeof form.next === 'string' ? form.next : undefined);
      if (!token || !(await options.verifyAdmin(token))) {
        // A right token always gets in; wrong ones are counted per address like API failures.
        const source = clientAddress(c);
        const retryAfter = options.failures?.retryAfterSeconds(source) ?? null;
        await options.failures?.record(
          source,
          {
            actor: 'anonymous',
            method: 'POST',
            path: c.req.path,
            code: 'LOGIN_FAILED',
            scope: 'admin',
          },
          retryAfter !== null,
        );
        if (retryAfter !== null) {
          return c.html(loginPage(next, 'throttled'), 429, {
            ...pageHeaders,
            'Retry-After': String(retryAfter),
          });
        }
        // The form again with why (200: a page, not an API refusal; no cookie is set).
        return c.html(loginPage(next, 'bad-token'), 200, pageHeaders);
      }
      await startSession(c, options.sessions, options.ttlMs);
      return c.redirect(next, 303);
    })
    .post('/logout', async (c) => {
      await endSession(c, options.sessions);
      return c.redirect('/dashboard/login', 303);
    });
}
