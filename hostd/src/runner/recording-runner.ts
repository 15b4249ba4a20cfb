// Test double for CommandRunner: answers from a script of replies and records every argv it saw.
import type { CommandRunner, RunOptions, RunResult } from './command-runner.js';

/** One scripted answer: matched against the joined argv (exact string or regular expression). */
export interface ScriptedReply {
  match: string | RegExp;
  reply: Partial<Omit<RunResult, 'durationMs'>> | ((argv: readonly string[]) => RunResult);
  /** Use this reply once only (default: every time it matches). */
  once?: boolean;
}

/**
 * Replies with the first matching script entry; an argv nothing matches fails loudly (rejects),
 * so a test never passes on a command it did not expect.
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
    this.calls.push({ argv: [...argv], options });
    const line = argv.join(' ');
    const position = this.#script.findIndex((entry) =>
      typeof entry.match === 'string' ? entry.match === line : entry.match.test(line),
    );
    const entry = this.#script[position];
    if (!entry) throw new Error(`RecordingRunner: unexpected command: ${line}`);
    if (entry.once) this.#script.splice(position, 1);
    if (typeof entry.reply === 'function') return entry.reply(argv);
    return { exitCode: 0, stdout: '', stderr: '', durationMs: 0, ...entry.reply };
  }
  /** Every argv run so far, joined by spaces: handy for golden plans. */
  commandLines(): string[] {
    return this.calls.map((call) => call.argv.join(' '));
  }
}
