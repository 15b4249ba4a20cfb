// The one place a request's client address is decided (failure limiter keys, audit rows): the
// app-wide middleware resolves it once per request, `clientAddress(c)` reads it. Nothing else
// reads X-Forwarded-For.
import type { Context, MiddlewareHandler } from 'hono';
import { createTrustedProxies, resolveClientAddress } from './trusted-proxies.js';

declare module 'hono' {
  interface ContextVariableMap {
    /** The request's client address, set by `clientAddressResolver()`. */
    clientAddress: string;
  }
}

/** The connecting socket's address (`unknown` without one, e.g. `app.request()` in tests). */
function peerAddress(c: Context): string {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress ?? 'unknown';
}

/**
 * Middleware factory: resolves the client address of every request (`trusted-proxies.ts`:
 * X-Forwarded-For only from a configured proxy) and stores it for `clientAddress(c)`.
 */
export function clientAddressResolver(trustedProxies: readonly string[]): MiddlewareHandler {
  const trusted = createTrustedProxies(trustedProxies);
  return async function resolveClient(c, next) {
    c.set(
      'clientAddress',
      resolveClientAddress(peerAddress(c), c.req.header('x-forwarded-for'), trusted),
    );
    await next();
  };
}

/**
 * The request's client address as resolved by `clientAddressResolver()`; the socket's peer when
 * the resolver did not run (a sub-app served on its own, which then trusts no proxy).
 */
export function clientAddress(c: Context): string {
  return c.get('clientAddress') ?? resolveClientAddress(peerAddress(c), undefined, () => false);
}
