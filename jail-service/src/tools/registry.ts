// The tool registry: both namespaces, their JSON schemas for GET /tools, and the one way to call a
// tool — bounded by its timeout, serialised with every other page operation, and followed by a
// page interrupt when it timed out so the next call finds a responsive renderer.

import type { Action, ToolsResponse } from '@clawdie/kit/jail-api';
import type { Logger } from 'pino';
import { z } from 'zod';
import { ToolTimeoutError } from '../errors.js';
import type { InputOutcome, PageDriver } from '../page-driver.js';
import type { ScreencastSource } from '../screencast.js';
import { type ActionTools, actionTools } from './actions.js';
import { dataCollectionTools } from './data-collection.js';
import { streamTools } from './screencast.js';
import { createSerialQueue } from './serial-queue.js';
import {
  type Tool,
  type ToolDeclaration,
  type ToolDefinition,
  type ToolDescriptor,
  type ToolEnvironment,
  timeoutOf,
} from './tool.js';
import { withTimeout } from './with-timeout.js';

/** Every declared tool, in the order `GET /tools` lists them: data_collection, stream, action. */
export const toolDeclarations: readonly ToolDeclaration[] = [
  ...Object.values(dataCollectionTools),
  ...Object.values(streamTools),
  ...Object.values(actionTools),
];

type Bound<D> = D extends ToolDefinition<infer Input, infer Output> ? Tool<Input, Output> : never;
type BoundFamily<F> = { [Name in keyof F]: Bound<F[Name]> };

export interface ToolRegistryOptions {
  driver: PageDriver;
  logger: Logger;
  actionTimeoutMs: number;
  navigationTimeoutMs: number;
  screenshotQuality: number;
  /** The live feed behind the `screencast` tool; without it the tool is not offered. */
  screencast?: ScreencastSource | undefined;
}

export interface InvokeOptions {
  /** Replaces the tool's own bound for this call. */
  timeoutMs?: number | undefined;
}

export interface ToolRegistry {
  readonly data: BoundFamily<typeof dataCollectionTools>;
  readonly action: BoundFamily<ActionTools>;
  /** Streaming tools, offered with a screencast source; they never hold the page. */
  readonly stream: Partial<BoundFamily<typeof streamTools>>;
  /** Every tool, data_collection first, in a stable order. */
  list(): ToolDescriptor[];
  /** `GET /tools`: descriptors with JSON schemas of their inputs. */
  describe(): ToolsResponse;
  /** Runs one tool within its bound; rejects with ToolTimeoutError after interrupting the page. */
  invoke<Input, Output>(
    tool: Tool<Input, Output>,
    input: Input,
    options?: InvokeOptions,
  ): Promise<Output>;
  /** Runs the action's tool (the action is already validated). */
  invokeAction(action: Action, options?: InvokeOptions): Promise<InputOutcome>;
  /**
   * A clean browser for the next task (PageDriver.reset), bounded by the navigation timeout plus
   * the action timeout. Call inside `exclusive`.
   */
  reset(): Promise<void>;
  /** Runs `fn` after every earlier exclusive operation ended: one page, one operation at a time. */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
}

export function createToolRegistry(options: ToolRegistryOptions): ToolRegistry {
  const { driver } = options;
  const logger = options.logger.child({ module: 'tools' });
  const env: ToolEnvironment = {
    driver,
    limits: {
      actionTimeoutMs: options.actionTimeoutMs,
      navigationTimeoutMs: options.navigationTimeoutMs,
      screenshotQuality: options.screenshotQuality,
    },
    screencast: options.screencast,
  };
  const data = bindFamily(dataCollectionTools, env);
  const action = bindFamily(actionTools, env);
  const stream = options.screencast ? bindFamily(streamTools, env) : {};
  const all = [data, stream, action].flatMap((family) => Object.values<ToolDescriptor>(family));
  const queue = createSerialQueue();
  let described: ToolsResponse | undefined;

  async function invoke<Input, Output>(
    tool: Tool<Input, Output>,
    input: Input,
    invokeOptions: InvokeOptions = {},
  ): Promise<Output> {
    const timeoutMs = invokeOptions.timeoutMs ?? tool.timeoutMs;
    try {
      return await withTimeout(tool.name, timeoutMs, (context) => tool.run(input, context));
    } catch (error) {
      if (error instanceof ToolTimeoutError) {
        logger.warn({ tool: tool.name, timeoutMs }, 'tool timed out; interrupting the page');
        await driver.interrupt();
      }
      throw error;
    }
  }

  return {
    data,
    action,
    stream,
    list: () => [...all],
    describe: () => {
      described ??= { tools: all.map(describeTool) };
      return described;
    },
    invoke,
    invokeAction: (act, invokeOptions) =>
      // The union of tools cannot be narrowed together with the action: the key is the action's
      // own type, so the pairing is correct by construction.
      invoke(action[act.type] as Tool<Action, InputOutcome>, act, invokeOptions),
    reset: () =>
      withTimeout('reset', options.navigationTimeoutMs + options.actionTimeoutMs, () =>
        driver.reset(options.navigationTimeoutMs),
      ),
    exclusive: (fn) => queue.run(fn),
  };
}

/** The declarations of `family` bound to one page and its limits. */
function bindFamily<F extends Record<string, ToolDeclaration>>(
  family: F,
  env: ToolEnvironment,
): BoundFamily<F> {
  const bound = Object.entries(family).map(([name, declared]) => {
    const { description, inputSchema, namespace, timeout, handle } = declared as ToolDefinition<
      unknown,
      unknown
    >;
    const run: Tool<unknown, unknown>['run'] = (input, context) =>
      handle(input, { ...env, ...context });
    const timeoutMs = timeoutOf(timeout, env.limits);
    return [name, { name: declared.name, namespace, description, timeoutMs, inputSchema, run }];
  });
  return Object.fromEntries(bound) as BoundFamily<F>;
}

function describeTool(tool: ToolDescriptor): ToolsResponse['tools'][number] {
  return {
    name: tool.name,
    namespace: tool.namespace,
    description: tool.description,
    timeout_ms: tool.timeoutMs,
    input_schema: z.toJSONSchema(tool.inputSchema, { io: 'input' }) as Record<string, unknown>,
  };
}
