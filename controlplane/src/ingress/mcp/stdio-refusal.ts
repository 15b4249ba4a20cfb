// `clawdie mcp` that cannot start (a server holds the data directory, a bad setting): instead of
// exiting, which an MCP client only reports as "Connection closed", it answers the client's
// requests on stdio (newline-delimited JSON-RPC, the MCP stdio transport) with an error that says
// why, then ends once stdin closes or after `timeoutMs`.
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';

/** JSON-RPC "internal error": the server could not do what was asked. */
const INTERNAL_ERROR = -32603;

export interface RefusalIo {
  input: Readable;
  output: Writable;
  /** Ends the wait for requests after this long (default 10 s). */
  timeoutMs?: number;
}

/**
 * Answers every request (a message with an `id`; `initialize` first) with `message`, code
 * INTERNAL_ERROR and `data.code`; notifications get nothing. Resolves with how many were answered.
 */
export function answerWithRefusal(message: string, code: string, io: RefusalIo): Promise<number> {
  const lines = createInterface({ input: io.input, crlfDelay: Number.POSITIVE_INFINITY });
  let answered = 0;
  return new Promise((resolve) => {
    const end = () => {
      clearTimeout(timer);
      lines.close();
      resolve(answered);
    };
    const timer = setTimeout(end, io.timeoutMs ?? 10_000);
    lines.on('line', (line) => {
      let request: { id?: unknown } | null = null;
      try {
        request = JSON.parse(line) as { id?: unknown };
      } catch {
        return;
      }
      if (request === null || typeof request !== 'object' || request.id === undefined) return;
      const error = { code: INTERNAL_ERROR, message, data: { code } };
      io.output.write(`${JSON.stringify({ jsonrpc: '2.0', id: request.id, error })}\n`);
      answered += 1;
    });
    lines.once('close', end);
  });
}
