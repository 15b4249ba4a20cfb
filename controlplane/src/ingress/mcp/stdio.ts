// `clawdie mcp`: the MCP server over stdio. stdout is the protocol channel; logs go to stderr.
import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { loopbackPrincipal, type Principal } from '../../governance/auth/scopes.js';
import { createMcpServer, type McpDeps } from './mcp-server.js';

/** Streams and stop signal of `runMcpStdio`; the defaults are the process's own. */
export interface McpStdioOptions {
  /** Defaults to `process.stdin`. */
  stdin?: Readable;
  /** Defaults to `process.stdout`; nothing else may write to it while the server runs. */
  stdout?: Writable;
  /** Stops the server (e.g. on SIGINT/SIGTERM). */
  signal?: AbortSignal;
  /** Who the tasks run for; default the local user (`loopbackPrincipal`). */
  principal?: Principal;
}

/**
 * Serves MCP on stdin/stdout until the client closes stdin, stdout fails (the client went away)
 * or `signal` aborts. Closing the server aborts the tasks of calls still running; the caller
 * then awaits `tasks.close()` to have them recorded. Rejects only when the server cannot start.
 *
 * The logger in `deps` must not write to stdout (`createLogger` writes to fd 2).
 */
export async function runMcpStdio(deps: McpDeps, options: McpStdioOptions = {}): Promise<void> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const logger = deps.logger.child({ module: 'mcp-stdio' });
  const server = createMcpServer(deps, options.principal ?? loopbackPrincipal);
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = resolve;
  });
  const stop = (reason: string) => {
    logger.info({ reason }, 'mcp-stdio-stopping');
    void server.close().catch((error: unknown) => logger.warn({ err: error }, 'mcp-close-failed'));
  };
  const onEnd = () => stop('stdin closed');
  const onOutputError = () => stop('stdout failed');
  const onAbort = () => stop('signal');
  stdin.once('end', onEnd);
  stdout.on('error', onOutputError);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await server.connect(new StdioServerTransport(stdin, stdout));
    logger.info('mcp-stdio-started');
    if (options.signal?.aborted) stop('signal');
    await closed;
  } finally {
    stdin.off('end', onEnd);
    stdout.off('error', onOutputError);
    options.signal?.removeEventListener('abort', onAbort);
  }
}
