import { Hono } from 'hono';
import type { Logger } from 'pino';
import { createMcpRoutes } from '../mcp/http-routes.js';
import type { TaskRepository } from '../store/task-repository.js';
import type { TaskService } from '../tasks/task-service.js';
import { createErrorHandler } from './error-handler.js';
import { buildOpenApiDocument } from './openapi.js';
import { createTaskRoutes } from './task-routes.js';

export interface AppDeps {
  tasks: TaskService;
  repository: TaskRepository;
  logger: Logger;
  /** Progress total for MCP calls that set no max_steps. */
  defaultMaxSteps: number;
  /** What /health reports about the configured model and browser. */
  describe: () => { model: { name: string; replay: boolean }; jail: { url: string } };
}

/** The controlplane HTTP app. Never listens; `main.ts` serves it. */
export function createApp(deps: AppDeps): Hono {
  const app = new Hono();
  app.onError(createErrorHandler(deps.logger));
  app.notFound((c) =>
    c.json(
      { error: { code: 'NOT_FOUND', message: `no route ${c.req.method} ${c.req.path}` } },
      404,
    ),
  );
  app.get('/health', (c) => c.json({ status: 'ok', ...deps.describe() }));
  const openapi = buildOpenApiDocument('0.1.0');
  app.get('/openapi.json', (c) => c.json(openapi));
  app.route('/v1/tasks', createTaskRoutes(deps));
  app.route(
    '/mcp',
    createMcpRoutes({
      tasks: deps.tasks,
      logger: deps.logger,
      defaultMaxSteps: deps.defaultMaxSteps,
    }),
  );
  return app;
}
