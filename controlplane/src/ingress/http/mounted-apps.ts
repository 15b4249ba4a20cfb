import { dashboardOperations } from '../dashboard/dashboard-operations.js';
import { createDashboardRoutes } from '../dashboard/dashboard-routes.js';
import { createMcpRoutes } from '../mcp/http-routes.js';
import type { Method, MountEntry, MountedRoute, ResponseDoc } from './route-types.js';

const mcpSession = { description: 'Unknown session id (or another caller’s)', ref: 'Error' };
const mcpRoute = (method: Method, summary: string, answer: ResponseDoc): MountedRoute => ({
  method,
  path: '',
  summary,
  headers: [
    {
      name: 'mcp-session-id',
      schema: { type: 'string' },
      description: 'The session from the initialize answer (absent only on initialize)',
    },
  ],
  responses: {
    '200': answer,
    '400': { description: 'No mcp-session-id and not an initialize POST' },
    '404': mcpSession,
  },
});

/** Sub-apps mounted whole: MCP over streamable HTTP, and the dashboard with its own login. */
export const mountedApps: MountEntry[] = [
  {
    kind: 'mount',
    path: '/mcp',
    access: 'tasks:run',
    summary:
      'MCP over streamable HTTP (JSON-RPC; tool browser_run_task); POST initialize opens a session (mcp-session-id), GET streams, DELETE closes',
    routes: [
      mcpRoute('POST', 'A JSON-RPC message (initialize opens a session)', {
        description: 'The JSON-RPC answer, or a stream of them',
        contentType: ['application/json', 'text/event-stream'],
      }),
      mcpRoute('GET', 'The server-to-client event stream', {
        description: 'Server-sent events',
        contentType: 'text/event-stream',
      }),
      mcpRoute('DELETE', 'Close the session', { description: 'Closed' }),
    ],
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
    access: 'dashboard-session',
    needs: 'dashboard',
    summary:
      'The admin dashboard (HTML): its own login form at /dashboard/login (admin token) sets a session cookie; assets and login are public, every other page needs the session',
    routes: dashboardOperations,
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
        replicas: deps.replicas,
        forward: deps.forward?.toOwner,
        repository,
        logger,
        takeover,
      });
    },
  },
];
