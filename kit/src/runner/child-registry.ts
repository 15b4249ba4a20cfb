// The children a process has started and that must not outlive it. One instance per process,
// made by its composition root and handed to every launcher: one exit hook, no module state.
// With `recordIn`, the live children are also written to a directory, so that a successor can
// stop them if this process dies by SIGKILL (orphan-sweep.ts).
import type { ChildProcess } from 'node:child_process';
import { basename } from 'node:path';
import { type RecordedChild, writeChildRecord } from './child-record.js';
import { type ProcessIdentity, readProcessIdentity } from './process-identity.js';

export interface TrackOptions {
  /** What `kill` sends, recorded for the sweep; default SIGKILL. */
  signal?: NodeJS.Signals;
  /** The child leads its own process group (the sweep signals the group). */
  group?: boolean;
  /** The program, for log lines (default the spawned file: a wrapper would hide the real one). */
  command?: string;
}

interface Tracked {
  kill: () => void;
  options: TrackOptions;
  /**
   * Read on first need (only a recording registry needs it; on FreeBSD it costs a ps(1) run).
   * Null when the start time cannot be read: such a child is never recorded.
   */
  recorded?: RecordedChild | null;
}

export class ChildRegistry {
  readonly #live = new Map<ChildProcess, Tracked>();
  readonly #records = new Map<string, (error: unknown) => void>();
  #hooked = false;
  #owner: ProcessIdentity | null | undefined;

  /** Tracks `child` until it exits; `kill` runs if this process exits first. Must not throw. */
  track(child: ChildProcess, kill: () => void, options: TrackOptions = {}): void {
    if (child.exitCode !== null || child.signalCode !== null) return;
    if (!this.#hooked) {
      this.#hooked = true;
      process.on('exit', () => this.killAll());
    }
    this.#live.set(child, { kill, options });
    child.once('exit', () => {
      this.#live.delete(child);
      this.#write();
    });
    this.#write();
  }

  /**
   * From now on keeps `directory`'s record of this process's live children up to date (written
   * on every start and exit of a child, removed when none is left). Returns the function that
   * stops recording there and removes the file. `onError` hears write failures; must not throw.
   */
  recordIn(directory: string, onError: (error: unknown) => void = () => {}): () => void {
    this.#records.set(directory, onError);
    this.#writeTo(directory, onError);
    return () => {
      if (!this.#records.delete(directory)) return;
      this.#writeTo(directory, onError, []);
    };
  }

  /** How many tracked children are still running. */
  get size(): number {
    return this.#live.size;
  }

  /** Kills every tracked child now (synchronous: the exit hook calls it). */
  killAll(): void {
    for (const { kill } of this.#live.values()) {
      try {
        kill();
      } catch {
        // Already gone.
      }
    }
  }

  #describe(child: ChildProcess, options: TrackOptions): RecordedChild | null {
    const identity = readProcessIdentity(child.pid ?? -1);
    if (!identity) return null;
    return {
      ...identity,
      command: basename(options.command ?? child.spawnfile ?? ''),
      signal: options.signal ?? 'SIGKILL',
      group: options.group ?? false,
    };
  }

  #write(): void {
    for (const [directory, onError] of this.#records) this.#writeTo(directory, onError);
  }

  #writeTo(
    directory: string,
    onError: (error: unknown) => void,
    children: RecordedChild[] = this.#recordedChildren(),
  ): void {
    this.#owner ??= readProcessIdentity(process.pid);
    if (!this.#owner) return;
    try {
      writeChildRecord(directory, { owner: this.#owner, children });
    } catch (error) {
      onError(error);
    }
  }

  #recordedChildren(): RecordedChild[] {
    const recorded: RecordedChild[] = [];
    for (const [child, tracked] of this.#live) {
      // A tracked child is not reaped yet, so its pid still names it.
      tracked.recorded ??= this.#describe(child, tracked.options);
      if (tracked.recorded) recorded.push(tracked.recorded);
    }
    return recorded;
  }
}
