// Every route the takeover sub-app (`takeover-routes.ts`, mounted at `/takeover`) answers, as
// `/openapi.json` documents it. test/controlplane/ingress/http/openapi-complete.test.ts fails when a
// route is served but missing here (or documented here but not served).
import { inputRequestSchema } from '@clawdie/kit/jail-api';
import { z } from 'zod';
import type { MountedRoute, ResponseDoc } from '../../ingress/http/route-types.js';
import { handBackSchema } from './takeover-routes.js';

type Answers = Record<string, ResponseDoc>;

const page = (description: string): Answers => ({
  '200': { description, contentType: 'text/html' },
});
const linkRefused: Answers = {
  '403': {
    description: 'Link invalid, expired, used or for another tenant',
    contentType: 'text/html',
  },
  '404': { description: 'Not a task id', contentType: 'text/html' },
  '409': { description: 'No takeover is in progress', contentType: 'text/html' },
  '429': { description: 'Too many refused requests from this address (Retry-After)' },
};
/** Behind the session: refusals are JSON errors. */
const sessionRefused: Answers = {
  '403': {
    description: 'No takeover session for this task, or a cross-site request',
    ref: 'Error',
  },
  '404': { description: 'Not a task id', ref: 'Error' },
  '409': { description: 'This takeover has ended', ref: 'Error' },
  '429': { description: 'Too many refused requests from this address (Retry-After)', ref: 'Error' },
};
const link = z.object({ t: z.string().describe('The signed single-use takeover link token') });
const inSession = (route: Omit<MountedRoute, 'access'>): MountedRoute => ({
  ...route,
  access: 'takeover-session',
  responses: { ...sessionRefused, ...route.responses },
});

export const takeoverOperations: MountedRoute[] = [
  {
    method: 'GET',
    path: '/assets/takeover.js',
    summary: 'The takeover page script',
    responses: { '200': { description: 'JavaScript', contentType: 'text/javascript' } },
  },
  {
    method: 'GET',
    path: '/assets/takeover.css',
    summary: 'The takeover page stylesheet',
    responses: { '200': { description: 'CSS', contentType: 'text/css' } },
  },
  { method: 'GET', path: '', summary: 'Where to start: open your link', responses: page('Hint') },
  {
    method: 'GET',
    path: '/:id/open',
    summary: 'What the link is for, with a button to start (does not spend the link)',
    query: link,
    responses: { ...page('Confirmation'), ...linkRefused },
  },
  {
    method: 'GET',
    path: '/:id/open/screen.jpg',
    summary: "The task's screen now, for the landing page (checks the link, does not spend it)",
    query: link,
    responses: {
      '200': { description: 'JPEG screenshot', contentType: 'image/jpeg' },
      ...linkRefused,
      '404': { description: 'Not a task id, or no screenshot to show', contentType: 'text/html' },
    },
  },
  {
    method: 'POST',
    path: '/:id/open',
    summary: 'Spend the link: starts a takeover session bound to the task (cookie)',
    body: { contentType: 'application/x-www-form-urlencoded', schema: link },
    responses: { '303': { description: 'Redirected to /takeover/{id}' }, ...linkRefused },
  },
  inSession({
    method: 'GET',
    path: '/:id',
    summary: 'The interactive live view (or a note that the takeover ended)',
    responses: page('The takeover page'),
  }),
  inSession({
    method: 'GET',
    path: '/:id/origin',
    summary: 'The origin the browser shows now',
    responses: {
      '200': { description: 'Origin', schema: z.object({ origin: z.string().nullable() }) },
    },
  }),
  inSession({
    method: 'GET',
    path: '/:id/status',
    summary: 'Whether the takeover is still active',
    responses: {
      '200': {
        description: 'Status',
        schema: z.object({ active: z.boolean(), reason: z.string().nullable() }),
      },
    },
  }),
  inSession({
    method: 'GET',
    path: '/:id/screencast',
    summary: 'The live screencast (MJPEG)',
    responses: {
      '200': { description: 'Motion JPEG', contentType: 'multipart/x-mixed-replace' },
      '404': { description: 'Not a task id, or this browser has no live feed' },
    },
  }),
  inSession({
    method: 'POST',
    path: '/:id/input',
    summary: 'Mouse and keyboard input for the browser',
    body: { contentType: 'application/json', schema: inputRequestSchema },
    responses: {
      '200': { description: 'Dispatched', schema: z.object({ dispatched: z.number() }) },
    },
  }),
  inSession({
    method: 'POST',
    path: '/:id/hand-back',
    summary: 'Hand the task back to the agent (optionally saving the session)',
    body: { contentType: 'application/json', schema: handBackSchema },
    responses: {
      '200': { description: 'Handed back', schema: z.object({ handed_back: z.literal(true) }) },
    },
  }),
];
