import { Hono } from 'hono';
import { html } from 'hono/html';
import { readForm } from '../http/error-handler.js';
import {
  type AdminSessions,
  endSession,
  safeNext,
  startSession,
  type VerifyAdmin,
} from './admin-auth.js';
import { barePage, pageHeaders } from './layout.js';

function loginPage(next: string, failed: boolean) {
  return barePage(
    'Log in',
    html`<div class="login card">
<h1>Clawdie dashboard</h1>
<form method="post" action="/dashboard/login">
<input type="hidden" name="next" value="${next}">
<label for="token">Admin token<input id="token" name="token" type="password" autocomplete="current-password" required autofocus></label>
${failed ? html`<p class="error-text" role="alert">That token is not an admin token.</p>` : ''}
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
}) {
  return new Hono()
    .get('/login', (c) => c.html(loginPage(safeNext(c.req.query('next')), false), 200, pageHeaders))
    .post('/login', async (c) => {
      const form = await readForm(c);
      const token = typeof form.token === 'string' ? form.token.trim() : '';
      const next = safeNext(typeof form.next === 'string' ? form.next : undefined);
      if (!token || !(await options.verifyAdmin(token))) {
        return c.html(loginPage(next, true), 401, pageHeaders);
      }
      startSession(c, options.sessions, options.ttlMs);
      return c.redirect(next, 303);
    })
    .post('/logout', (c) => {
      endSession(c, options.sessions);
      return c.redirect('/dashboard/login', 303);
    });
}
