import type { z } from 'zod';
import type { ToolNamespace } from '../api/index.js';
import type { TimeoutContext } from './with-timeout.js';

/** A call's view of its own bound: see tools/with-timeout.ts. */
export type ToolContext = TimeoutContext;

/** What `GET /tools` lists about a tool. */
export interface ToolDescriptor {
  name: string;
  namespace: ToolNamespace;
  description: string;
  /** Default bound of one call; a batch may override it with `timeout_ms`. */
  timeoutMs: number;
  inputSchema: z.ZodType;
}

/**
 * A tool: a named, schema-described, time-bounded operation on the page. Handlers talk only to
 * the PageDriver port; they throw AppErrors for domain failures.
 */
export interface Tool<Input, Output> extends ToolDescriptor {
  inputSchema: z.ZodType<Input>;
  run(input: Input, context: ToolContext): Promise<Output>;
}

/** Time kept back from a call's bound for the work that follows a navigation wait. */
export const SETTLE_MARGIN_MS = 250;

/** A navigation bound that ends before the call's own deadline, so the call reports it. */
export function navigationBudget(context: ToolContext, navigationTimeoutMs: number): number {
  return Math.max(1, Math.min(navigationTimeoutMs, context.remainingMs() - SETTLE_MARGIN_MS));
}
