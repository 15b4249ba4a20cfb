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
    return createTakeoverRoutes({ ...deps.takeover, failures: deps.refusals });
  },
};
