// `browser_run_task`: the one MCP tool, a whole browser task per call (definition + handler).
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Principal } from '../../governance/auth/scopes.js';
import {
  browserRunTaskInputSchema,
  type CompactResult,
  compactResultSchema,
} from '../../tasks/task-input.js';
import type { TaskService } from '../../tasks/task-service.js';
import { describeUsage } from '../../tasks/task-usage.js';
import { describeVerification } from '../../tasks/task-verification.js';
import { artifactLinks } from './artifact-resources.js';
import { createProgressTracker } from './progress.js';
import type { McpToolDefinition } from './tool-definition.js';

/** The ports the tool talks to. */
export interface BrowserRunTaskToolDeps {
  tasks: TaskService;
  /** Who the connection belongs to (the bearer token's principal, or the local user on stdio). */
  principal: Principal;
  /** The configured step limit, reported as the progress `total` when the call sets none. */
  defaultMaxSteps: number;
}

/** `browser_run_task` as data: the shared task input in, the compact result out. */
export type BrowserRunTaskTool = McpToolDefinition<
  typeof browserRunTaskInputSchema,
  typeof compactResultSchema
>;

const description = [
  'Runs a task in a real, isolated Chromium browser driven by a vision agent (UI-TARS) that',
  'looks at screenshots and clicks, types and scrolls like a person until the task is done.',
  'Use it when the answer or the action needs a rendered web page: JavaScript-heavy sites,',
  'clicking through a UI, filling in forms, reading what a page actually shows. Do not use it',
  'for plain HTTP fetches or for what you can answer without a browser.',
  'Give one self-contained instruction in plain language (say what to return), optionally a',
  'start_url and the domains it may visit. Takes seconds to minutes; reports progress per step',
  'when you pass a progress token; cancelling the call aborts the task.',
  'Returns the status (finished, max_steps, call_user, aborted or error), the final answer as',
  'summary (parsed into result_data when it is JSON) and a trace_id to inspect the steps.',
].join(' ');

/** The tool definition; the handler starts a task, relays progress and maps cancel to abort. */
export function createBrowserRunTaskTool(deps: BrowserRunTaskToolDeps): BrowserRunTaskTool {
  return {
    name: 'browser_run_task',
    title: 'Run a browser task',
    description,
    inputSchema: browserRunTaskInputSchema,
    outputSchema: compactResultSchema,
    annotations: {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    },
    async handle(input, { signal, reportProgress }) {
      if (signal.aborted) throw new Error('the call was cancelled before the task started');
      const track = createProgressTracker(input.max_steps ?? deps.defaultMaxSteps);
      const plan = await deps.tasks.admit(input, deps.principal);
      const sent: Promise<void>[] = [];
      // One subscriber of the run's event stream: its steps and its statuses alike.
      const task = await deps.tasks.start(plan, (event) => {
        const update = track(event);
        if (update) sent.push(reportProgress(update));
      });
      // The task service records the abort and resolves `done` with status `aborted`.
      const abort = () => void deps.tasks.abort(task.taskId);
      signal.addEventListener('abort', abort, { once: true });
      try {
        const result = await task.done;
        // Progress after the response is dropped by clients: the last step's update goes first.
        await Promise.all(sent);
        return toToolResult(result);
      } finally {
        signal.removeEventListener('abort', abort);
      }
    },
  };
}

/**
 * The compact result as a tool result: `structuredContent` always, a few lines of text for
 * clients that only show text, and `isError` when the task ended in `error`.
 */
export function toToolResult(result: CompactResult): CallToolResult {
  return {
    content: [
      { type: 'text', text: renderResultText(result) },
      ...artifactLinks(result.trace_id, result.artifacts ?? []),
    ],
    structuredContent: result,
    ...(result.status === 'error' ? { isError: true } : {}),
  };
}

/**
 * `status`, `summary`, `verification` (a finished task checked against its requests), `error`,
 * `trace_id`, `steps`, `usage` and each artifact's name, size and type, one per line; never
 * screenshots or file content.
 */
export function renderResultText(result: CompactResult): string {
  return [
    `status: ${result.status}`,
    `summary: ${result.summary ?? '(none)'}`,
    ...(result.verification ? [`verification: ${describeVerification(result.verification)}`] : []),
    ...(result.error ? [`error: ${result.error.code}: ${result.error.message}`] : []),
    `trace_id: ${result.trace_id}`,
    `steps: ${result.step_count}`,
    ...(result.usage ? [`usage: ${describeUsage(result.usage)}`] : []),
    ...(result.artifacts ?? []).map(
      (artifact) => `artifact: ${artifact.name} (${artifact.bytes} bytes, ${artifact.mime})`,
    ),
  ].join('\n');
}
