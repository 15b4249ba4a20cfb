// A fake OpenAI-compatible server that plays real UI-TARS-1.5 text per task (the n-th reply of a
// conversation by its assistant turns, like per-task-script-model.ts) and fails on demand: queued
// outcomes (429 with Retry-After, 5xx, dropped connections, stalled streams, empty or truncated
// replies) answer the next requests first, and `fault` may fail any request (the bench's 30 % 429
// and outage). Used by the model-client tests and bench/model-client.ts.
import type { ChatServer, ModelOutcome, ModelRequestRecord } from './uitars-test-model-server.js';
import { startChatServer } from './uitars-test-model-server.js';

/** A click on the 1280×800 screen centre (smart-resized 1288×812), then the task's answer. */
export const UITARS_SCRIPT: readonly string[] = [
  "Thought: The search box is at the top of the page. I will click it before typing the product name.\nAction: click(start_box='<|box_start|>(644,406)<|box_end|>')",
  "Thought: The order confirmation shows the order number, so the task is done.\nAction: finished(content='ORD-1042')",
];

export interface FaultyChatServerOptions {
  script?: readonly string[];
  /** Delay before every answer, ms. */
  delayMs?: number;
  /** Decides a failure for a request the queue does not answer; null lets the script answer. */
  fault?: (record: ModelRequestRecord) => ModelOutcome | null;
}

export interface FaultyChatServer extends ChatServer {
  /** Answers the next requests with these outcomes, in order, before the script answers again. */
  queue(...outcomes: ModelOutcome[]): void;
  /** Outcomes still queued. */
  queued(): number;
  /** The script's reply for a request with `turn` assistant turns. */
  scriptReply(turn: number): string;
}

export const tooManyRequests = (retryAfter: string): ModelOutcome => ({
  kind: 'error',
  status: 429,
  message: 'rate limit reached, retry later',
  headers: { 'retry-after': retryAfter },
});

export async function startFaultyChatServer(
  options: FaultyChatServerOptions = {},
): Promise<FaultyChatServer> {
  const script = options.script ?? UITARS_SCRIPT;
  const queued: ModelOutcome[] = [];
  const scriptReply = (turn: number) => script[Math.min(turn, script.length - 1)] ?? '';
  const server = await startChatServer({
    modelName: 'ui-tars-1.5-faulty',
    delayMs: () => options.delayMs ?? 0,
    respond: async (record, request) => {
      const next = queued.shift() ?? options.fault?.(record) ?? null;
      if (next) {
        record.mode = next.kind === 'error' ? `error ${next.status}` : next.kind;
        return next;
      }
      const turn = request.messages.filter((message) => message.role === 'assistant').length;
      record.mode = `script[${turn}]`;
      return { kind: 'reply', content: scriptReply(turn) };
    },
  });
  return {
    ...server,
    queue: (...outcomes) => void queued.push(...outcomes),
    queued: () => queued.length,
    scriptReply,
  };
}
