import { Hono } from 'hono';
import type { MountEntry } from '../../ingress/http/route-types.js';
import { takeoverOperations } from './takeover-operations.js';
import { createTakeoverRoutes } from './takeover-routes.js';

/** `/takeover/*`: the supervisor's interactive live view; its own auth (signed link → session). */
export const takeoverMount: MountEntry = {
  kind: 'mount',
  path: '/takeover',
  access: 'public',
  needs: 'takeover',
  summary:
    'Interactive live view of a needs_user task (HTML): /takeover/{id}/open?t=<signed single-use link> starts a session bound to the task; input, screencast and hand-back need it',
  routes: takeoverOperations,
  create: (deps) => {
    if (!deps.takeover) throw new Error('takeover mounted without its deps');
    const routes = createTakeoverRoutes({ ...deps.takeover, failures: deps.refusals });
    if (!deps.forward) return routes;
    // The link, its session and the takeover live on the replica that runs the task: every
    // request for it goes there (its own auth is checked there, so no principal is passed on).
    const app = new Hono();
    const toOwner = deps.forward.toOwner('page', () => null);
    app.use('/:id', toOwner);
    app.use('/:id/*', toOwner);
    return app.route('/', routes);
  },
};
