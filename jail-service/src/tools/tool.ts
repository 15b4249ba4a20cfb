// What a tool is, declared once (in the manner of playwright-mcp's `defineTool`): name, namespace,
// description, input schema, timeout policy and handler in one object. The registry binds the
// declarations to one page; `GET /tools` and docs/jail-service-api.md are derived from them.

import type { ToolNamespace } from '@clawdie/kit/jail-api';
import type { z } from 'zod';
import type { PageDriver } from '../page-driver.js';
import type { ScreencastSource } from '../screencast.js';
import type { TimeoutContext } from './with-timeout.js';

/** A call's view of its own bound: see tools/with-timeout.ts. */
export type ToolContext = TimeoutContext;

/** A tool's bound: the service's action or navigation timeout, plus `extraMs`. */
export interface TimeoutPolicy {
  base: 'action' | 'navigation';
  extraMs?: number;
}

/** The service's configured bounds and defaults, as handlers and timeout policies see them. */
export interface ToolLimits {
  actionTimeoutMs: number;
  navigationTimeoutMs: number;
  screenshotQuality: number;
}

/** What the registry gives every handler: the page, the limits, the live feed if there is one. */
export interface ToolEnvironment {
  driver: PageDriver;
  limits: ToolLimits;
  screencast: ScreencastSource | undefined;
}

/** One call of a handler: its environment and its own bound. */
export type ToolCall = ToolEnvironment & ToolContext;

/** A tool without its handler: what `GET /tools` and the docs say about it. */
export interface ToolDeclaration {
  name: string;
  namespace: ToolNamespace;
  description: string;
  inputSchema: z.ZodType;
  timeout: TimeoutPolicy;
}

/**
 * A tool: a named, schema-described, time-bounded operation on the page. Handlers talk only to
 * the PageDriver port; they throw AppErrors for domain failures.
 */
export interface ToolDefinition<Input, Output> extends ToolDeclaration {
  inputSchema: z.ZodType<Input>;
  handle: (input: Input, call: ToolCall) => Promise<Output>;
}

/** A tool as declared within its family: the family's key is its name. */
export type ToolSpec<Input, Output> = Omit<ToolDefinition<Input, Output>, 'name' | 'namespace'>;

/** One tool of a family (`handle` is typed by `inputSchema`). */
export function tool<Input, Output>(spec: ToolSpec<Input, Output>): ToolSpec<Input, Output> {
  return spec;
}

/** Any spec, for constraints: every handler accepts some input, so `never` stands for all. */
type SomeSpec = Omit<ToolDeclaration, 'name' | 'namespace'> & {
  handle: (input: never, call: ToolCall) => Promise<unknown>;
};

type Family<F> = {
  [Name in keyof F & string]: F[Name] extends ToolSpec<infer Input, infer Output>
    ? ToolDefinition<Input, Output>
    : never;
};

/** A family of tools in one namespace, each named by its key. */
export function defineTools<F extends Record<string, SomeSpec>>(
  namespace: ToolNamespace,
  specs: F,
): Family<F> {
  const named = Object.entries(specs).map(([name, spec]) => [name, { name, namespace, ...spec }]);
  return Object.fromEntries(named) as Family<F>;
}

/** The bound of one call under `policy`. */
export function timeoutOf(policy: TimeoutPolicy, limits: ToolLimits): number {
  const base = policy.base === 'action' ? limits.actionTimeoutMs : limits.navigationTimeoutMs;
  return base + (policy.extraMs ?? 0);
}

/** What `GET /tools` lists about a bound tool. */
export interface ToolDescriptor {
  name: string;
  namespace: ToolNamespace;
  description: string;
  /** Default bound of one call; a batch may override it with `timeout_ms`. */
  timeoutMs: number;
  inputSchema: z.ZodType;
}

/** A tool bound to one page (`bindFamily` in tools/registry.ts): what the registry invokes. */
export interface Tool<Input, Output> extends ToolDescriptor {
  inputSchema: z.ZodType<Input>;
  run(input: Input, context: ToolContext): Promise<Output>;
}

/** Time kept back from a call's bound for the work that follows a navigation wait. */
export const SETTLE_MARGIN_MS = 250;

/** A navigation bound that ends before the call's own deadline, so the call reports it. */
export function navigationBudget(call: ToolCall): number {
  const { navigationTimeoutMs } = call.limits;
  return Math.max(1, Math.min(navigationTimeoutMs, call.remainingMs() - SETTLE_MARGIN_MS));
}
