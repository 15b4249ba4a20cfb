import type { MountEntry } from '../../ingress/http/route-types.js';
import { createTakeoverRoutes } from './takeover-routes.js';

/** `/takeover/*`: the supervisor's interactive live view; its own auth (signed link → session). */
export const takeoverMount: MountEntry = {
  kind: 'mount',
  path: '/takeover',
  documentedPath: '/takeover/{task}/{page}',
  methods: ['GET', 'POST'],
  access: 'public',
  needs: 'takeover',
  summary:
    'Interactive live view of a needs_user task (HTML): /takeover/{task}/open?t=<signed single-use link> starts a session bound to the task; input, screencast and hand-back need it',
  responses: {
    '200': { description: 'text/html, the MJPEG feed, or JSON', contentType: 'text/html' },
    '403': { description: 'Link invalid, expired, used or for another tenant; no session' },
    '404': { description: 'Not a task id (refused before any lookup)' },
    '429': { description: 'Too many refused requests from this client address (Retry-After)' },
  },
  create: (deps) => {
    if (!deps.takeover) throw new Error('takeover mounted without its deps');
    return createTakeoverRoutes({ ...deps.takeover, failures: deps.refusals });
  },
};
