import { AsyncLocalStorage } from 'node:async_hooks';
import type { Principal } from './scopes.js';

const storage = new AsyncLocalStorage<Principal>();

/**
 * Runs `fn` with `principal` as the caller of everything it starts. The auth middleware wraps
 * each request this way, so deeper layers the request reaches without the Hono context (the MCP
 * transport's tool handlers) can still tell who is asking.
 */
export function runAs<T>(principal: Principal, fn: () => T): T {
  return storage.run(principal, fn);
}

/** The caller of the current request, or undefined outside one (CLI, stdio MCP). */
export function currentPrincipal(): Principal | undefined {
  return storage.getStore();
}
