// The request-body bound of every controlplane route (issue 12): one oversized POST must not be
// buffered into memory, whatever the route and whether or not the caller is authenticated.

import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';

/** The default bound: 1 MiB (CLAWDIE_MAX_BODY_BYTES). */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/**
 * Refuses a body over `maxBytes` with 413 `{error: {code: 'BODY_TOO_LARGE'}}`. A declared
 * Content-Length over the bound is refused before any byte is read; a chunked body is read only
 * up to the bound. The response closes the connection: the client may still be sending, and the
 * rest of its body is never read into memory.
 */
export function requestBodyLimit(options: { maxBytes: number }): MiddlewareHandler {
  const { maxBytes } = options;
  if (!Number.isInteger(maxBytes) || maxBytes <= 0) {
    throw new Error(`requestBodyLimit: maxBytes must be a positive integer, got ${maxBytes}`);
  }
  return bodyLimit({
    maxSize: maxBytes,
    onError: (c) =>
      c.json(
        {
          error: {
            code: 'BODY_TOO_LARGE',
            message: `request body is larger than ${maxBytes} bytes`,
          },
        },
        413,
        { connection: 'close' },
      ),
  });
}

/**
 * Closes the connection after a response sent without reading the request's body (a 401 before
 * the body, a route that takes none). A client that stops sending once it has its answer would
 * otherwise leave unread bytes on a kept-alive connection: the server waits for them, then
 * drops the connection under the client's next request (UND_ERR_SOCKET).
 */
export function closeUnreadBodies(): MiddlewareHandler {
  return async function closeUnreadBody(c, next) {
    await next();
    const declared = c.req.header('content-length');
    const hasBody =
      (declared !== undefined && declared !== '0') || c.req.header('transfer-encoding');
    if (hasBody && !c.req.raw.bodyUsed) c.header('connection', 'close');
  };
}
