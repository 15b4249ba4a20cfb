// Every route the dashboard sub-app (`dashboard-routes.ts`, mounted at `/dashboard`) answers, as
// `/openapi.json` documents it. test/controlplane/ingress/http/openapi-complete.test.ts fails when a
// route is served but missing here (or documented here but not served).
import { z } from 'zod';
import type { MountedRoute, ResponseDoc } from '../http/route-types.js';
import { auditQuerySchema, listQuerySchema } from './dashboard-context.js';

type Answers = Record<string, ResponseDoc>;

const page: Answers = { '200': { description: 'The page', contentType: 'text/html' } };
const notFound: ResponseDoc = { description: 'No such task (page)', contentType: 'text/html' };
const back: Answers = { '303': { description: 'Done: back to the page it was sent from' } };
const image = (what: string, contentType = 'image/jpeg'): Answers => ({
  '200': { description: what, contentType },
  '404': { description: `No ${what.toLowerCase()}`, contentType: 'text/plain' },
});
const form = (schema: z.ZodType) => ({ contentType: 'application/x-www-form-urlencoded', schema });

/** Behind the session: a page GET without it is redirected to the login, anything else is 401. */
function withSession(route: MountedRoute): MountedRoute {
  const refused: Answers = {
    '401': { description: 'No dashboard session (not a page request)', contentType: 'text/plain' },
    ...(route.method === 'GET'
      ? { '303': { description: 'No dashboard session: redirected to /dashboard/login' } }
      : { '403': { description: 'Cross-site request refused', contentType: 'text/plain' } }),
  };
  return { ...route, responses: { ...refused, ...route.responses } };
}

const open: MountedRoute[] = [
  {
    method: 'GET',
    path: '/assets/:name',
    summary: 'A static asset of the dashboard (stylesheet, page scripts)',
    access: 'public',
    responses: {
      '200': { description: 'CSS or JavaScript', contentType: ['text/css', 'text/javascript'] },
      '404': { description: 'No such asset', contentType: 'text/plain' },
    },
  },
  {
    method: 'GET',
    path: '/login',
    summary: 'The login form (admin token)',
    access: 'public',
    query: z.object({ next: z.string().optional() }),
    responses: page,
  },
  {
    method: 'POST',
    path: '/login',
    summary: 'Log in with the admin token: sets the session cookie',
    access: 'public',
    body: form(z.object({ token: z.string(), next: z.string().optional() })),
    responses: {
      '303': { description: 'Logged in: redirected to `next` (a dashboard path)' },
      '401': { description: 'Not an admin token: the form again', contentType: 'text/html' },
      '429': { description: 'Too many failed logins from this address (Retry-After)' },
    },
  },
  {
    method: 'POST',
    path: '/logout',
    summary: 'End the session',
    access: 'public',
    responses: { '303': { description: 'Redirected to /dashboard/login' } },
  },
];

const task = (path: string, summary: string, responses: Answers): MountedRoute => ({
  method: 'GET',
  path: `/tasks/:id${path}`,
  summary,
  responses,
});
const command = (name: string, summary: string): MountedRoute => ({
  method: 'POST',
  path: `/tasks/:id/${name}`,
  summary,
  responses: { ...back, '404': notFound },
});

const guarded: MountedRoute[] = [
  { method: 'GET', path: '', summary: 'Task list', query: listQuerySchema, responses: page },
  task('', 'Task detail: steps, screenshots, result', { ...page, '404': notFound }),
  task('/steps/:index/screenshot.jpg', "A step's screenshot", image('Screenshot')),
  task('/final.jpg', 'The final screenshot', image('Final screenshot')),
  task('/artifacts/:name', 'A downloaded file', image('Download', 'application/octet-stream')),
  task('/recording.mp4', 'The screen recording', image('Recording', 'video/mp4')),
  task('/replay', 'Step-by-step replay', { ...page, '404': notFound }),
  task('/export', 'Self-contained HTML report (attachment)', { ...page, '404': notFound }),
  task('/live', 'Live view with pause, resume, abort and takeover', { ...page, '404': notFound }),
  task('/events', 'The task event stream (SSE, Last-Event-ID resumes)', {
    '200': { description: 'Server-sent events', contentType: 'text/event-stream' },
    '404': { description: 'No such task', contentType: 'text/plain' },
  }),
  task('/screencast', 'The live screencast of a running task (MJPEG)', {
    '200': { description: 'Motion JPEG', contentType: 'multipart/x-mixed-replace' },
    '404': { description: 'No live feed for this task', contentType: 'text/plain' },
  }),
  command('takeover', 'Take over a needs_user task (redirects through a fresh takeover link)'),
  command('abort', 'Abort the task'),
  command('pause', 'Pause the task'),
  command('resume', 'Resume the task'),
  { method: 'GET', path: '/sessions', summary: 'Saved sessions', responses: page },
  {
    method: 'POST',
    path: '/sessions/:tenant/:name/revoke',
    summary: 'Revoke a saved session',
    responses: back,
  },
  { method: 'GET', path: '/audit', summary: 'Audit log', query: auditQuerySchema, responses: page },
  {
    method: 'GET',
    path: '/approvals',
    summary: 'Pending and recent approvals',
    query: z.object({ error: z.enum(['closed', 'unknown']).optional() }),
    responses: page,
  },
  {
    method: 'GET',
    path: '/approvals/:id/screenshot',
    summary: 'The screenshot an approval was asked with',
    responses: image('Screenshot'),
  },
  {
    method: 'POST',
    path: '/approvals/:id',
    summary: 'Approve or deny',
    body: form(z.object({ decision: z.enum(['approve', 'deny']) })),
    responses: { ...back, '400': { description: 'Bad decision', contentType: 'text/plain' } },
  },
  { method: 'GET', path: '/settings', summary: 'Settings and policies', responses: page },
  { method: 'GET', path: '/hosts', summary: 'Clones, warm pool and limits', responses: page },
];

export const dashboardOperations: MountedRoute[] = [...open, ...guarded.map(withSession)];
