// The Linux clone's logs live only in hostd's memory (its jail-service's and Xvfb's output lines):
// the last few of each per clone, so a failed start can leave them on the host (task-logs.ts).

import type { CloneNamespace } from '../clone-namespace.js';
import { createNodeHostFiles } from '../freebsd/host-files.js';
import { keepStartFailure, START_FAILURE_TAIL_BYTES, type TaskLogRetention } from '../task-logs.js';

export type LogSource = 'jail-service' | 'xvfb';

export class LogTails {
  readonly #tails = new Map<string, Map<LogSource, string[]>>();
  readonly #bytes = new Map<string, number>();

  append(name: string, source: LogSource, line: string): void {
    const sources = this.#tails.get(name) ?? new Map<LogSource, string[]>();
    this.#tails.set(name, sources);
    const lines = sources.get(source) ?? [];
    sources.set(source, lines);
    lines.push(line);
    const key = `${name}\0${source}`;
    let bytes = (this.#bytes.get(key) ?? 0) + line.length + 1;
    while (bytes > START_FAILURE_TAIL_BYTES && lines.length > 1) {
      bytes -= (lines.shift() ?? '').length + 1;
    }
    this.#bytes.set(key, bytes);
  }

  text(name: string, source: LogSource): string | null {
    const lines = this.#tails.get(name)?.get(source);
    return lines === undefined ? null : `${lines.join('\n')}\n`;
  }

  forget(name: string): void {
    this.#tails.delete(name);
    for (const source of ['jail-service', 'xvfb'] as const)
      this.#bytes.delete(`${name}\0${source}`);
  }

  /** Writes the clone's tails to the host; the error's message names the file. Never throws. */
  async keep(
    retention: TaskLogRetention,
    namespace: CloneNamespace,
    name: string,
    error: Error,
  ): Promise<Error> {
    const kept = await keepStartFailure(
      createNodeHostFiles(),
      retention,
      namespace,
      name,
      Date.now(),
      [
        { title: `${name}: start error`, text: `${error.message}\n` },
        { title: `${name}: jail-service output`, text: this.text(name, 'jail-service') },
        { title: `${name}: Xvfb output`, text: this.text(name, 'xvfb') },
      ],
    );
    if (kept !== null) error.message = `${error.message} (the clone's logs: ${kept})`;
    return error;
  }
}
