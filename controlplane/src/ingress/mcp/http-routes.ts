// `/mcp`: MCP over streamable HTTP with sessions, so a client's `notifications/cancelled` reaches
// the server that runs the call (and aborts its task).
import { randomUUID } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { Hono } from 'hono';
import { loopbackPrincipal, type Principal } from '../../governance/auth/scopes.js';
import { createMcpServer, type McpDeps } from './mcp-server.js';

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  /** Who opened it (tenant + subject); nobody else may use it. */
  owner: string;
  close(): Promise<void>;
  lastSeen: number;
}

export interface McpRoutesOptions {
  /** Sessions idle longer than this are closed (default 30 min). */
  idleMs?: number;
}

const jsonRpcError = (code: number, message: string) => ({
  jsonrpc: '2.0',
  error: { code, message },
  id: null,
});

/**
 * Routes to mount at `/mcp`. An `initialize` POST without a session id opens a session (its own
 * McpServer and transport, id in `mcp-session-id`); later POST/GET/DELETE carry that id. A call's
 * progress and result stream back on its POST response. A session belongs to the principal
 * (tenant + subject) that opened it: anyone else's request with its id gets 404, as if unknown. Cancelling a call (or closing the
 * session with DELETE, or dropping the connection of a POST that is still streaming) aborts the
 * task. Idle sessions are closed. `close()` on the returned object ends every session.
 */
export function createMcpRoutes(
  deps: McpDeps,
  options: McpRoutesOptions = {},
): Hono & { closeSessions(): Promise<void> } {
  const logger = deps.logger.child({ module: 'mcp-http' });
  const sessions = new Map<string, Session>();
  const idleMs = options.idleMs ?? 30 * 60_000;
  const sweep = setInterval(
    () => {
      const cutoff = Date.now() - idleMs;
      for (const session of sessions.values()) if (session.lastSeen < cutoff) void session.close();
    },
    Math.min(idleMs, 60_000),
  );
  sweep.unref();

  async function openSession(principal: Principal): Promise<Session> {
    const owner = ownerKey(principal);
    const server = createMcpServer(deps, principal);
    let session: Session | null = null;
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        if (session) sessions.set(id, session);
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
      },
    });
    session = {
      transport,
      owner,
      lastSeen: Date.now(),
      close: async () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
        await server
          .close()
          .catch((error: unknown) => logger.warn({ err: error }, 'mcp-close-failed'));
      },
    };
    await server.connect(transport);
    return session;
  }

  const routes = new Hono();
  routes.all('/', async (c) => {
    const id = c.req.header('mcp-session-id');
    // Set by the auth (or loopback) middleware; routes mounted bare in tests act as loopback.
    const principal = c.get('principal') ?? loopbackPrincipal;
    const caller = ownerKey(principal);
    let session = id ? sessions.get(id) : undefined;
    // Another principal's session id is answered exactly like an unknown one.
    if (session && session.owner !== caller) session = undefined;
    if (id && !session)
      return c.json(jsonRpcError(-32001, 'Session not found: initialize again'), 404);
    if (!session) {
      if (c.req.method !== 'POST')
        return c.json(
          jsonRpcError(-32000, 'Bad request: no mcp-session-id; send initialize first'),
          400,
        );
      session = await openSession(principal);
    }
    session.lastSeen = Date.now();
    const request = c.req.raw;
    const streaming = c.req.method === 'POST' && (await isToolCall(request));
    const response = await session.transport.handleRequest(request);
    // A client that drops a call's stream is gone: end its session, which aborts the task.
    if (streaming)
      request.signal.addEventListener('abort', () => void session.close(), { once: true });
    return response;
  });
  return Object.assign(routes, {
    async closeSessions() {
      clearInterval(sweep);
      await Promise.all([...sessions.values()].map((session) => session.close()));
    },
  });
}

/** Tenant and subject of the caller. */
function ownerKey(principal: Principal): string {
  return JSON.stringify([principal.tenant, principal.subject]);
}

async function isToolCall(request: Request): Promise<boolean> {
  try {
    const body = (await request.clone().json()) as unknown;
    const messages = Array.isArray(body) ? body : [body];
    return messages.some((message) => (message as { method?: string })?.method === 'tools/call');
  } catch {
    return false;
  }
}
