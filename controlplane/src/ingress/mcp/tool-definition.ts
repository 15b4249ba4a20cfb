// The shape of an MCP tool as data: metadata, zod schemas and a handler that talks only to ports.
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { ProgressUpdate } from './progress.js';

/** What a tool handler gets from the dispatcher besides its parsed input. */
export interface ToolContext {
  /** Aborts when the client cancels the call or disconnects. */
  signal: AbortSignal;
  /**
   * Sends `notifications/progress` when the client gave a progress token, else does nothing.
   * Never rejects (failures are logged); resolves once the notification is handed to the
   * transport, so a handler can await its last updates before it returns the result (a client
   * drops progress that arrives after the response).
   */
  reportProgress(update: ProgressUpdate): Promise<void>;
}

/**
 * One MCP tool. The dispatcher (`createMcpServer`) validates input against `inputSchema` (the SDK
 * does), calls `handle`, and turns a throw into an `isError: true` result, so `handle` may throw.
 */
export interface McpToolDefinition<Input extends z.ZodObject, Output extends z.ZodObject> {
  /** `snake_case` with a family prefix, e.g. `browser_run_task`. */
  name: string;
  title: string;
  /** Written for the calling agent: what the tool does and when to use it. */
  description: string;
  inputSchema: Input;
  outputSchema: Output;
  annotations: ToolAnnotations;
  handle(input: z.output<Input>, context: ToolContext): Promise<CallToolResult>;
}
