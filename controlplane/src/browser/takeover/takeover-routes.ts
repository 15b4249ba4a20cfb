// `/takeover/<task>`: the interactive live view a supervisor reaches with a signed link. `open`
// spends the link and starts a cookie session bound to that task; every other route needs it.
// Input bodies are relayed to the clone and never logged; the audit gets counts only.
import { inputRequestSchema } from '@clawdie/kit/jail-api';
import { type Context, Hono } from 'hono';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Clock } from '../../clock.js';
import type { AuditLog } from '../../governance/audit/audit-log.js';
import { boundText } from '../../governance/audit/bounded-fields.js';
import {
  type AuthFailureLimiter,
  createAuthFailureLimiter,
} from '../../governance/auth/auth-failure-limiter.js';
import type { Principal } from '../../governance/auth/scopes.js';
import { clientAddress } from '../../ingress/http/client-address.js';
import { createErrorHandler, readForm, readJson } from '../../ingress/http/error-handler.js';
import type { TaskRepository } from '../../platform/store/task-repository.js';
import { relayFeed } from '../operator/feed-relay.js';
import { createScreencastFeed } from '../operator/screencast-feed.js';
import { currentOrigin } from './current-origin.js';
import { createScreenCache } from './screen-cache.js';
import { TakeoverError } from './takeover-error.js';
import type { TakeoverLinks } from './takeover-links.js';
import { takeoverConfirm, takeoverCss, takeoverMessage, takeoverPage } from './takeover-page.js';
import type { SaveSessionRequest, TakeoverRegistry } from './takeover-registry.js';
import { takeoverScript } from './takeover-script.js';
import type { TakeoverSessions } from './takeover-sessions.js';

export const handBackSchema = z.strictObject({
  note: z.string().max(500).optional(),
  save_session: z
    .strictObject({
      name: z.string().min(1).max(100),
      origins: z.array(z.string().min(1).max(300)).min(1).max(20),
    })
    .optional(),
});

/**
 * Called at hand-back before the loop resumes (saved sessions). Rejecting (e.g. the login could not
 * be saved) refuses the hand-back with that error: the takeover goes on, the supervisor can retry.
 */
export type OnHandBack = (
  taskId: string,
  principal: Principal,
  saveSession: SaveSessionRequest | undefined,
) => Promise<void>;

export interface TakeoverRouteDeps {
  registry: TakeoverRegistry;
  links: TakeoverLinks;
  sessions: TakeoverSessions;
  repository: Pick<TaskRepository, 'getTask'>;
  audit: AuditLog;
  clock: Clock;
  logger: Logger;
  onHandBack?: OnHandBack | undefined;
  /**
   * The app's one failure limiter: refusals are counted per client address, audited a handful
   * of rows per window, and answered 429 past the limit (default: its own, 30 a minute).
   */
  failures?: AuthFailureLimiter | undefined;
}

/** What a task id looks like (a UUID in production; tests use short names). Else: refused unread. */
const taskIdPattern = /^[A-Za-z0-9_-]{1,64}$/;

const pageHeaders = {
  'content-security-policy':
    "default-src 'none'; img-src 'self'; style-src 'self'; script-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

/** The principal a link session acts as: its user, in the task's tenant, with `operate`. */
export const sessionPrincipal = (session: { tenant: string; user: string }): Principal => ({
  tenant: session.tenant,
  subject: session.user,
  scopes: ['operate'],
  via: 'token',
});

export function createTakeoverRoutes(deps: TakeoverRouteDeps): Hono {
  const logger = deps.logger.child({ module: 'takeover-routes' });
  const failures =
    deps.failures ?? createAuthFailureLimiter({ audit: deps.audit, limit: 30, windowMs: 60_000 });
  /**
   * Counts (and maybe audits, committed before it resolves) one refusal; the seconds to wait when
   * past the limit, else null.
   */
  const refuse = async (taskId: string, code: string, c: Context) => {
    const source = clientAddress(c);
    const retryAfter = failures.retryAfterSeconds(source);
    const wellFormed = taskIdPattern.test(taskId);
    const failure = {
      type: 'takeover-refused' as const,
      actor: 'anonymous',
      method: c.req.method,
      path: c.req.path,
      code,
      scope: 'takeover',
      taskId: wellFormed ? taskId : null,
      ...(wellFormed ? {} : { details: { task: boundText(taskId, 120) } }),
    };
    await failures.record(source, failure, retryAfter !== null);
    return retryAfter;
  };
  const tooMany = { code: 'TOO_MANY_AUTH_FAILURES', message: 'too many failed requests' };
  /** Throws before any lookup when the path's task id is not one (an 8 KB id is not). */
  const taskIdOf = (c: Context) => {
    const taskId = c.req.param('id') ?? '';
    if (!taskIdPattern.test(taskId))
      throw new TakeoverError('TAKEOVER_NOT_FOUND', 'that is not a task id');
    return taskId;
  };
  const screens = createScreenCache(deps.clock);
  const app = new Hono();
  app.get('/assets/takeover.js', (c) =>
    c.body(takeoverScript, 200, { 'content-type': 'text/javascript; charset=utf-8' }),
  );
  app.get('/assets/takeover.css', (c) =>
    c.body(takeoverCss, 200, { 'content-type': 'text/css; charset=utf-8' }),
  );

  app.get('/', (c) =>
    c.html(
      takeoverMessage('Take over a task', 'Open the takeover link you were sent.'),
      200,
      pageHeaders,
    ),
  );
  /** Checks a link for this task (spending it when `spend`): claims, the task, its takeover. */
  const admit = async (taskId: string, token: string, spend: boolean) => {
    const claims = spend ? deps.links.redeem(token, taskId) : deps.links.check(token, taskId);
    const task = await deps.repository.getTask(taskId);
    if (!task || task.tenant !== claims.tenant)
      throw new TakeoverError('TAKEOVER_FORBIDDEN', 'the link is not for this task’s tenant');
    const active = deps.registry.get(taskId);
    if (!active) throw new TakeoverError('TAKEOVER_NOT_ACTIVE', 'no takeover is in progress');
    return { claims, task, active };
  };
  const refused = async (c: Context, error: unknown) => {
    if (!(error instanceof TakeoverError)) throw error;
    const retryAfter = await refuse(c.req.param('id') ?? '', error.code, c);
    if (retryAfter !== null) {
      const body = takeoverMessage('Too many refused requests', 'Wait a minute and try again.');
      return c.html(body, 429, { ...pageHeaders, 'retry-after': String(retryAfter) });
    }
    const body = takeoverMessage('Takeover refused', error.message);
    return c.html(body, error.status as 403, pageHeaders);
  };

  // GET only shows what the link is for: link scanners and previews must not spend it.
  app.get('/:id/open', async (c) => {
    try {
      const taskId = taskIdOf(c);
      const token = c.req.query('t') ?? '';
      const { task, active } = await admit(taskId, token, false);
      const page = takeoverConfirm({ task, token, takeover: active, now: deps.clock.now() });
      return c.html(page, 200, pageHeaders);
    } catch (error) {
      return refused(c, error);
    }
  });
  // The landing page's picture of the task's screen now (the link is checked, not spent).
  app.get('/:id/open/screen.jpg', async (c) => {
    try {
      const { active } = await admit(taskIdOf(c), c.req.query('t') ?? '', false);
      const jpeg = await screens.of(active);
      if (!jpeg) return c.text('no screenshot', 404, { 'cache-control': 'no-store' });
      return c.body(new Uint8Array(jpeg), 200, {
        'content-type': 'image/jpeg',
        'cache-control': 'no-store',
      });
    } catch (error) {
      return refused(c, error);
    }
  });
  app.post('/:id/open', async (c) => {
    try {
      const taskId = taskIdOf(c);
      const form = await readForm(c);
      const { claims, task, active } = await admit(taskId, String(form.t ?? ''), true);
      const expiresAt = active.deadline;
      deps.sessions.start(c, { taskId, tenant: task.tenant, user: claims.user, expiresAt });
      await deps.audit.append({
        type: 'takeover-started',
        actor: claims.user,
        taskId,
        data: { phase: 'supervisor_in_control', reason: active.reason },
      });
      return c.redirect(`/takeover/${taskId}`, 303);
    } catch (error) {
      return refused(c, error);
    }
  });

  /** The session and active takeover of a request, or a refusal. */
  const guard = (c: Context) => {
    const taskId = taskIdOf(c);
    const site = c.req.header('sec-fetch-site');
    if (c.req.method !== 'GET' && site && site !== 'same-origin' && site !== 'none')
      throw new TakeoverError('TAKEOVER_FORBIDDEN', 'cross-site request refused');
    const session = deps.sessions.of(c, taskId);
    if (!session) throw new TakeoverError('TAKEOVER_FORBIDDEN', 'open the takeover link first');
    return { session, active: deps.registry.get(taskId) ?? null };
  };
  const activeOf = (c: Context) => {
    const { session, active } = guard(c);
    if (!active) throw new TakeoverError('TAKEOVER_NOT_ACTIVE', 'this takeover has ended');
    return { session, active };
  };

  app.get('/:id', async (c) => {
    const { session, active } = guard(c);
    if (!active)
      return c.html(
        takeoverMessage('Takeover ended', 'The task has resumed or ended.'),
        200,
        pageHeaders,
      );
    const origin = (await currentOrigin(active)) ?? '';
    const page = takeoverPage(active, session.user, origin, deps.clock.now());
    return c.html(page, 200, pageHeaders);
  });
  /** The origin the clone shows now (the page refreshes its "origins to save" from it). */
  app.get('/:id/origin', async (c) => {
    const { active } = activeOf(c);
    return c.json({ origin: await currentOrigin(active) });
  });
  app.get('/:id/status', (c) => {
    const { active } = guard(c);
    return c.json({ active: Boolean(active), reason: active?.reason ?? null });
  });
  app.get('/:id/screencast', async (c) => {
    const { active } = activeOf(c);
    if (!active.endpoint) return c.text('this browser has no live feed', 404);
    const feed = createScreencastFeed({ ...active.endpoint, fps: 10, quality: 70 });
    // The supervisor's view ends with the takeover (checked twice a second).
    return relayFeed(c, feed, {
      watch(stop) {
        const timer = setInterval(() => {
          if (deps.registry.get(active.taskId) !== active) stop();
        }, 500);
        return () => clearInterval(timer);
      },
      logger,
      what: 'takeover view',
    });
  });
  app.post('/:id/input', async (c) => {
    const { active } = activeOf(c);
    if (!active.client)
      throw new TakeoverError('TAKEOVER_NOT_ACTIVE', 'this browser takes no input');
    const { events } = inputRequestSchema.parse(await readJson(c));
    const report = await active.client.input(events, c.req.raw.signal);
    active.inputs.record(events, report);
    // Counts only (as audited): how many events went in, and the kinds of field keys went to.
    return c.json({ dispatched: report.dispatched, targets: report.targets });
  });
  app.post('/:id/hand-back', async (c) => {
    const { session, active } = activeOf(c);
    const body = handBackSchema.parse(await readJson(c));
    await deps.onHandBack?.(active.taskId, sessionPrincipal(session), body.save_session);
    active.handBack({ note: body.note ?? null, by: session.user, saveSession: body.save_session });
    return c.json({ handed_back: true });
  });
  const fallback = createErrorHandler(deps.logger);
  app.onError(async (error, c) => {
    if (!(error instanceof TakeoverError)) return fallback(error, c);
    const retryAfter = await refuse(c.req.param('id') ?? '', error.code, c);
    if (retryAfter !== null)
      return c.json({ error: tooMany }, 429, { 'retry-after': String(retryAfter) });
    return c.json({ error: { code: error.code, message: error.message } }, error.status as 403);
  });
  return app;
}
