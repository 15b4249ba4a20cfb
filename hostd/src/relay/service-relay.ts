// hostd's relay to a leased clone's jail-service (`ALL /clones/:name/leases/:leaseId/service/*`):
// a clone's jail-service answers at an address only its host routes, so a controlplane on another
// machine reaches it through hostd. The caller's request (method, rest of the path, query, headers
// but the hop-by-hop ones and its credentials, the body streamed) goes on to the clone with the
// clone's own token; the answer comes back streamed (the screencast flows frame by frame). The
// caller going away aborts the upstream request.
import { LEASE_HEADER, MAX_RELAY_BODY_BYTES } from '../api/schema.js';
import type { CloneService } from '../drivers/jail-driver.js';
import { HostdError } from '../errors.js';

/** The route's prefix; what follows `/service` is the path on the jail-service. */
const RELAY_PREFIX = /^\/clones\/[^/]+\/leases\/[^/]+\/service(?=\/|$)/;

/** True for a path the relay serves (exempt from hostd's small body bound, not from its bearer). */
export function isRelayPath(path: string): boolean {
  return RELAY_PREFIX.test(path);
}

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'host',
]);

/** Headers that stay on this hop: hop-by-hop ones, `proxy-*`, those `connection` names, `drop`. */
function forwardable(headers: Headers, drop: readonly string[]): Headers {
  const named = (headers.get('connection') ?? '').split(',').map((name) => name.trim());
  const out = new Headers();
  for (const [name, value] of headers) {
    if (HOP_BY_HOP.has(name) || name.startsWith('proxy-') || named.includes(name)) continue;
    if (!drop.includes(name)) out.append(name, value);
  }
  return out;
}

/** Counts the body on its way through; errors the stream past `limit` bytes. */
function bounded(body: ReadableStream<Uint8Array>, limit: number, onOver: () => void) {
  let size = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        size += chunk.byteLength;
        if (size > limit) {
          onOver();
          controller.error(new Error(`request body over ${limit} bytes`));
        } else controller.enqueue(chunk);
      },
    }),
  );
}

/**
 * The upstream body, chunk by chunk; it ends quietly when the caller went away (the upstream fetch
 * was aborted with it), and errors when the upstream broke while the caller still listens.
 */
function untilCallerLeaves(body: ReadableStream<Uint8Array>, signal: AbortSignal) {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        if (signal.aborted) controller.close();
        else controller.error(error);
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

function tooLarge(): HostdError {
  return new HostdError(
    'BODY_TOO_LARGE',
    `a relayed request body is larger than ${MAX_RELAY_BODY_BYTES} bytes`,
    413,
  );
}

/**
 * Forwards `request` (addressed to the relay route) to `service`, answering the upstream status,
 * headers and streamed body. Throws HostdError BODY_TOO_LARGE (413) or CLONE_UNREACHABLE (502).
 */
export async function relayToService(
  request: Request,
  service: CloneService,
  fetchImpl: typeof fetch = fetch,
): Promise<Response> {
  const url = new URL(request.url);
  const rest = url.pathname.replace(RELAY_PREFIX, '');
  const target = `${service.url.replace(/\/+$/, '')}${rest}${url.search}`;
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > MAX_RELAY_BODY_BYTES) throw tooLarge();
  let over = false;
  const headers = forwardable(request.headers, [
    'authorization',
    LEASE_HEADER,
    'content-length',
    'accept-encoding',
  ]);
  headers.set('authorization', `Bearer ${service.token}`);
  const body = request.body
    ? bounded(request.body, MAX_RELAY_BODY_BYTES, () => {
        over = true;
      })
    : null;
  let upstream: Response;
  try {
    upstream = await fetchImpl(target, {
      method: request.method,
      headers,
      body,
      signal: request.signal,
      redirect: 'manual',
      ...(body ? { duplex: 'half' } : {}),
    } as RequestInit);
  } catch (error) {
    if (over) throw tooLarge();
    const reason = error instanceof Error ? (error.cause ?? error).toString() : String(error);
    throw new HostdError('CLONE_UNREACHABLE', `the clone's jail-service: ${reason}`, 502, error);
  }
  // fetch decoded a compressed body: its length and encoding no longer describe what we send.
  const encoded = upstream.headers.has('content-encoding');
  const answer = upstream.body ? untilCallerLeaves(upstream.body, request.signal) : null;
  return new Response(answer, {
    status: upstream.status,
    statusText: upstream.statusText,
    headers: forwardable(upstream.headers, encoded ? ['content-encoding', 'content-length'] : []),
  });
}
