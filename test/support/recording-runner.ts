// Test double for CommandRunner: answers from a script of replies and records every argv it saw.
// It keeps the port's contract (test/kit/runner/command-runner.contract.ts): any exit code resolves; an
// unscripted program is a spawn failure; a reply slower than `timeoutMs` is a timeout; an abort
// rejects at once.
import {
  CommandAbortedError,
  type CommandRunner,
  CommandSpawnError,
  CommandTimeoutError,
  type RunOptions,
  type RunResult,
} from '@clawdie/kit/runner';

/** One scripted answer: matched against the joined argv (exact string or regular expression). */
export interface ScriptedReply {
  match: string | RegExp;
  reply:
    | Partial<Omit<RunResult, 'durationMs'>>
    | ((argv: readonly string[], options: RunOptions) => RunResult);
  /** Use this reply once only (default: every time it matches). */
  once?: boolean;
  /** How long the "program" runs before it answers (default 0): longer than `timeoutMs` times out. */
  delayMs?: number;
}

/**
 * Replies with the first matching script entry; an argv nothing matches fails loudly (rejects
 * with a CommandSpawnError), so a test never passes on a command it did not expect.
 */
export class RecordingRunner implements CommandRunner {
  readonly calls: { argv: readonly string[]; options: RunOptions }[] = [];
  readonly #script: ScriptedReply[];
  constructor(script: ScriptedReply[] = []) {
    this.#script = [...script];
  }
  /** Adds replies; later entries are consulted after earlier ones. */
  script(...replies: ScriptedReply[]): void {
    this.#script.push(...replies);
  }
  async run(argv: readonly string[], options: RunOptions): Promise<RunResult> {
    if (options.signal?.aborted) throw new CommandAbortedError(argv);
    this.calls.push({ argv: [...argv], options });
    const line = argv.join(' ');
    const position = this.#script.findIndex((entry) =>
      typeof entry.match === 'string' ? entry.match === line : entry.match.test(line),
    );
    const entry = this.#script[position];
    if (!entry) {
      throw new CommandSpawnError(argv, new Error(`RecordingRunner: unexpected command: ${line}`));
    }
    if (entry.once) this.#script.splice(position, 1);
    if (entry.delayMs) await runFor(argv, entry.delayMs, options);
    if (typeof entry.reply === 'function') return entry.reply(argv, options);
    return { exitCode: 0, stdout: '', stderr: '', durationMs: entry.delayMs ?? 0, ...entry.reply };
  }
  /** Every argv run so far, joined by spaces: handy for golden plans. */
  commandLines(): string[] {
    return this.calls.map((call) => call.argv.join(' '));
  }
}

/** Waits `ms` as the running "program"; rejects like the real adapter on timeout or abort. */
function runFor(argv: readonly string[], ms: number, options: RunOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    const finish = (error?: Error) => {
      clearTimeout(done);
      clearTimeout(limit);
      options.signal?.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else resolve();
    };
    const onAbort = () => finish(new CommandAbortedError(argv));
    const done = setTimeout(() => finish(), ms);
    const limit = setTimeout(
      () => finish(new CommandTimeoutError(argv, options.timeoutMs)),
      options.timeoutMs,
    );
    if (ms <= options.timeoutMs) clearTimeout(limit);
    options.signal?.addEventListener('abort', onAbort, { once: true });
  });
}
