// The Clawdie MCP server: registers the tool definitions and dispatches calls to them.
import { McpServer, type ToolCallback } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type {
  CallToolResult,
  ServerNotification,
  ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import type { z } from 'zod';
import { AppError } from '../../errors.js';
import type { Principal } from '../../governance/auth/scopes.js';
import type { TaskService } from '../../tasks/task-service.js';
import { type McpArtifactSource, registerArtifactResources } from './artifact-resources.js';
import { createBrowserRunTaskTool } from './browser-run-task-tool.js';
import type { McpToolDefinition, ToolContext } from './tool-definition.js';

/** What every MCP surface (stdio, streamable HTTP) needs. */
export interface McpDeps {
  tasks: TaskService;
  logger: Logger;
  /** The configured step limit (`config.loop.maxSteps`), the progress `total` by default. */
  defaultMaxSteps: number;
  /** Tasks' downloaded files as resources (`clawdie://tasks/{id}/artifacts/{name}`); absent: none. */
  artifacts?: McpArtifactSource | undefined;
}

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Name and version the server announces in `initialize`. */
export const mcpServerInfo = { name: 'clawdie', title: 'Clawdie', version: '0.1.0' };

/**
 * A new MCP server exposing `browser_run_task` to `principal`, not yet connected. One server
 * serves one connection: stdio one for the process, HTTP one per session (its opener).
 */
export function createMcpServer(deps: McpDeps, principal: Principal): McpServer {
  const logger = deps.logger.child({ module: 'mcp' });
  const capabilities = deps.artifacts ? { tools: {}, resources: {} } : { tools: {} };
  const server = new McpServer(mcpServerInfo, { capabilities });
  server.server.onerror = (error) => logger.warn({ err: error }, 'mcp-protocol-error');
  registerDefinition(server, createBrowserRunTaskTool({ ...deps, principal }), logger);
  if (deps.artifacts) registerArtifactResources(server, deps.artifacts, principal);
  return server;
}

function registerDefinition<Input extends z.ZodObject, Output extends z.ZodObject>(
  server: McpServer,
  tool: McpToolDefinition<Input, Output>,
  logger: Logger,
): void {
  const config = {
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema,
    outputSchema: tool.outputSchema,
    annotations: tool.annotations,
  };
  // The SDK parsed the arguments with `inputSchema` before calling; its output type is ours.
  const handle = async (input: z.output<Input>, extra: Extra): Promise<CallToolResult> => {
    try {
      return await tool.handle(input, toolContext(extra, logger));
    } catch (error) {
      logger.warn({ err: error, tool: tool.name }, 'mcp-tool-failed');
      return toolErrorResult(error);
    }
  };
  server.registerTool(tool.name, config, handle as ToolCallback<Input>);
}

function toolContext(extra: Extra, logger: Logger): ToolContext {
  const progressToken = extra._meta?.progressToken;
  return {
    signal: extra.signal,
    reportProgress:
      progressToken === undefined
        ? () => Promise.resolve()
        : (update) =>
            extra
              .sendNotification({
                method: 'notifications/progress',
                params: { progressToken, ...update },
              })
              .catch((error: unknown) => logger.warn({ err: error }, 'mcp-progress-failed')),
  };
}

/** A thrown error as a tool failure the calling agent can read (`CODE: message`). */
export function toolErrorResult(error: unknown): CallToolResult {
  const code = error instanceof AppError ? error.code : 'INTERNAL';
  const message = error instanceof Error ? error.message : String(error);
  return { content: [{ type: 'text', text: `${code}: ${message}` }], isError: true };
}
