// pi extension: the `browser_run_task` tool, which runs a browser task on a Clawdie controlplane
// (POST /v1/tasks), streams its steps as progress and returns the compact result.
// Loaded by pi through jiti; it must never write to stdout (pi's RPC mode speaks JSONL there).
import type {
  AgentToolResult,
  AgentToolUpdateCallback,
  ExtensionAPI,
  ExtensionFactory,
  ToolDefinition,
} from '@mariozechner/pi-coding-agent';
import type { CompactResult } from '../src/tasks/task-input.js';
import { type ConfigFlags, type ExtensionConfig, loadConfigFromProcess } from './config.js';
import {
  type ControlplaneClient,
  createControlplaneClient,
  type FetchLike,
} from './controlplane-client.js';
import { TaskAbortedError } from './errors.js';
import { followTask } from './follow-task.js';
import {
  type BrowserRunTaskDetails,
  formatProgress,
  formatResultText,
  isFailedTaskResult,
  type TaskProgress,
} from './format.js';
import { type BrowserRunTaskParams, browserRunTaskParameters } from './parameters.js';
import type { RetryPolicy } from './sse-client.js';

export const toolName = 'browser_run_task';

/** Seams for tests; pi itself uses the defaults. */
export interface BrowserRunTaskExtensionOptions {
  fetch?: FetchLike;
  /** Replaces flag/environment lookup. */
  loadConfig?: (flags: ConfigFlags) => ExtensionConfig;
  retry?: RetryPolicy;
  pollIntervalMs?: number;
  idleTimeoutMs?: number;
  stallCheckMs?: number;
  /** How long a cancelled call waits for the aborted task's result (default 10 s). */
  abortWaitMs?: number;
}

type Tool = ToolDefinition<typeof browserRunTaskParameters, BrowserRunTaskDetails>;
type Result = AgentToolResult<BrowserRunTaskDetails>;
type InFlight = Map<string, { client: ControlplaneClient; traceId: string }>;

const description = `Run a task in a real, isolated Chromium browser driven by Clawdie's vision agent (UI-TARS): it looks at screenshots and clicks, types and scrolls like a person until the instruction is done. Returns one compact JSON object {status, summary, result_data, trace_id, step_count, final_screenshot_path, error?}; status is finished, call_user (a human must step in; the reason is in summary), max_steps, error or aborted. Use it when a job needs a live, rendered web page: following a UI flow, checking what a page shows or does, reading content that needs JavaScript or interaction, filling in a form. Not for plain HTTP requests or APIs (use curl) or anything answerable from files. A task takes from tens of seconds to minutes; one runs at a time.`;

/**
 * Builds the extension factory. It registers the `--clawdie-url` / `--clawdie-token` flags, the
 * tool, a `tool_result` hook that flags failed tasks as errors while keeping their details (a
 * returned `isError` is ignored before pi 0.99), and a `session_shutdown` hook that aborts remote
 * tasks still running. Nothing is contacted until the tool runs.
 */
export function createBrowserRunTaskExtension(
  options: BrowserRunTaskExtensionOptions = {},
): (pi: ExtensionAPI) => void {
  return function browserRunTaskExtension(pi: ExtensionAPI): void {
    pi.registerFlag('clawdie-url', {
      description: 'Clawdie controlplane URL (default: $CLAWDIE_URL or http://127.0.0.1:8700)',
      type: 'string',
    });
    pi.registerFlag('clawdie-token', {
      description: 'Bearer token for the Clawdie controlplane (default: $CLAWDIE_TOKEN)',
      type: 'string',
    });
    const inFlight: InFlight = new Map();
    const clientFor = () => {
      const flags = { url: flagString(pi, 'clawdie-url'), token: flagString(pi, 'clawdie-token') };
      const config = (options.loadConfig ?? loadConfigFromProcess)(flags);
      return createControlplaneClient({
        ...config,
        ...(options.fetch ? { fetch: options.fetch } : {}),
      });
    };

    const tool: Tool = {
      name: toolName,
      label: 'Browser task',
      description,
      promptSnippet: `${toolName}: run a task in a real Chromium browser (vision agent clicks and types) and get a compact JSON result`,
      promptGuidelines: [
        `Use ${toolName} only when the job needs a live, rendered web page (UI flows, JavaScript-heavy pages, checking what a page shows); prefer curl for plain HTTP requests and APIs.`,
        `Give ${toolName} one concrete, self-contained instruction with a clear end state and what to report, plus start_url when known and domains to keep it on the intended site.`,
        `Pass result_schema to ${toolName} when you need structured data back; it arrives parsed in result_data.`,
        `When ${toolName} returns status call_user, tell the user what the browser needs instead of retrying; after error or max_steps, read error and summary before retrying with a more specific instruction or a higher max_steps.`,
      ],
      parameters: browserRunTaskParameters,
      executionMode: 'sequential',
      execute: async (toolCallId, params, signal, onUpdate) =>
        runTask(clientFor(), params, { toolCallId, signal, onUpdate, inFlight, options }),
    };
    pi.registerTool(tool);

    pi.on('tool_result', (event) => {
      if (event.toolName !== toolName || event.isError) return undefined;
      return isFailedTaskResult(event.details) ? { isError: true } : undefined;
    });
    pi.on('session_shutdown', async () => {
      const running = [...inFlight.values()];
      inFlight.clear();
      await Promise.allSettled(running.map(({ client, traceId }) => client.abortTask(traceId)));
    });
  };
}

/**
 * One tool call: submit, follow with progress, return the compact result. Throws on HTTP and
 * transport failures, and TaskAbortedError (after `POST /v1/tasks/:id/abort`) when `signal` aborts.
 */
async function runTask(
  client: ControlplaneClient,
  params: BrowserRunTaskParams,
  call: {
    toolCallId: string;
    signal: AbortSignal | undefined;
    onUpdate: AgentToolUpdateCallback<BrowserRunTaskDetails> | undefined;
    inFlight: InFlight;
    options: BrowserRunTaskExtensionOptions;
  },
): Promise<Result> {
  const { signal, onUpdate, inFlight, options } = call;
  if (signal?.aborted)
    throw new TaskAbortedError(`${toolName} was cancelled before it started`, null);
  let traceId: string;
  try {
    traceId = await client.startTask(params, signal);
  } catch (error) {
    if (!signal?.aborted) throw error;
    throw new TaskAbortedError(`${toolName} was cancelled while submitting the task`, null);
  }
  inFlight.set(call.toolCallId, { client, traceId });
  // Reported at once, then again when the stream replays it: each line is sent once.
  let last = '';
  const report = (progress: TaskProgress) => {
    const text = formatProgress(progress);
    if (text === last) return;
    last = text;
    onUpdate?.({ content: [{ type: 'text', text }], details: progress });
  };
  report({ trace_id: traceId, status: 'queued', step: null });
  try {
    const result = await followTask(client, traceId, {
      signal,
      onProgress: report,
      ...(options.retry ? { retry: options.retry } : {}),
      ...(options.pollIntervalMs === undefined ? {} : { pollIntervalMs: options.pollIntervalMs }),
      ...(options.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: options.idleTimeoutMs }),
      ...(options.stallCheckMs === undefined ? {} : { stallCheckMs: options.stallCheckMs }),
    });
    return { content: [{ type: 'text', text: formatResultText(result) }], details: result };
  } catch (error) {
    if (!signal?.aborted) throw error;
    const stopped = await stopRemoteTask(client, traceId);
    const ended = await abortedResult(client, traceId, options);
    if (!ended) throw new TaskAbortedError(stopped, traceId);
    // The aborted result as details (the tool_result hook flags it isError), like any ending.
    const text = `${stopped}\n${formatResultText(ended)}`;
    return { content: [{ type: 'text', text }], details: ended };
  } finally {
    inFlight.delete(call.toolCallId);
  }
}

/** Tells the controlplane to stop the task; returns the message for the thrown abort error. */
async function stopRemoteTask(client: ControlplaneClient, traceId: string): Promise<string> {
  const prefix = `${toolName} cancelled: browser task ${traceId}`;
  try {
    const outcome = await client.abortTask(traceId);
    return outcome === 'aborting'
      ? `${prefix} is being aborted on the controlplane`
      : `${prefix} had already ended on the controlplane`;
  } catch (error) {
    return `${prefix} could not be aborted remotely (${(error as Error).message}); it may still be running`;
  }
}

/** The result of a task being aborted, once it is recorded; null when it does not come in time. */
async function abortedResult(
  client: ControlplaneClient,
  traceId: string,
  options: BrowserRunTaskExtensionOptions,
): Promise<CompactResult | null> {
  try {
    return await followTask(client, traceId, {
      signal: AbortSignal.timeout(options.abortWaitMs ?? 10_000),
      onProgress: () => undefined,
      ...(options.retry ? { retry: options.retry } : {}),
      ...(options.stallCheckMs === undefined ? {} : { stallCheckMs: options.stallCheckMs }),
    });
  } catch {
    return null;
  }
}

function flagString(pi: ExtensionAPI, name: string): string | undefined {
  const value = pi.getFlag(name);
  return typeof value === 'string' ? value : undefined;
}

/** The extension pi loads (`pi -e ./controlplane/pi-extension/browser-run-task.ts`). */
const browserRunTaskExtension: ExtensionFactory = createBrowserRunTaskExtension();
export default browserRunTaskExtension;
