import { createDashboardRoutes } from '../dashboard/dashboard-routes.js';
import { createMcpRoutes } from '../mcp/http-routes.js';
import type { MountEntry } from './route-types.js';

const mcpSession = { description: 'Unknown session id (or another caller’s)', ref: 'Error' };

/** Sub-apps mounted whole: MCP over streamable HTTP, and the dashboard with its own login. */
export const mountedApps: MountEntry[] = [
  {
    kind: 'mount',
    path: '/mcp',
    methods: ['POST', 'GET', 'DELETE'],
    access: 'tasks:run',
    summary:
      'MCP over streamable HTTP (JSON-RPC; tool browser_run_task); POST initialize opens a session (mcp-session-id), GET streams, DELETE closes',
    responses: {
      '200': { description: 'JSON-RPC answer or text/event-stream' },
      '400': { description: 'No mcp-session-id and not an initialize POST' },
      '404': mcpSession,
    },
    create: (deps) =>
      createMcpRoutes({
        tasks: deps.tasks,
        logger: deps.logger,
        defaultMaxSteps: deps.defaultMaxSteps,
        ...(deps.artifacts
          ? { artifacts: { repository: deps.repository, files: deps.artifacts } }
          : {}),
      }),
  },
  {
    kind: 'mount',
    path: '/dashboard',
    documentedPath: '/dashboard/{page}',
    methods: ['GET', 'POST'],
    access: 'dashboard-session',
    needs: 'dashboard',
    summary:
      'The admin dashboard (HTML): its own login form at /dashboard/login (admin token) sets a session cookie; assets and login are public, every other page needs the session',
    responses: {
      '200': { description: 'text/html', contentType: 'text/html' },
      '303': { description: 'No session: redirected to /dashboard/login' },
    },
    create: (deps) => {
      if (!deps.dashboard) throw new Error('dashboard mounted without its options');
      const { tasks, repository, logger } = deps;
      const { takeover } = deps;
      // Failed logins count against the app's one limiter, with bearer and takeover refusals.
      const loginFailures = deps.dashboard.loginFailures ?? deps.refusals;
      return createDashboardRoutes({
        ...deps.dashboard,
        loginFailures,
        tasks,
        repository,
        logger,
        takeover,
      });
    },
  },
];
