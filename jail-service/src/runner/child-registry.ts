// The children a process has started and that must not outlive it. One instance per process,
// made by its composition root and handed to every launcher: one exit hook, no module state.
import type { ChildProcess } from 'node:child_process';

export class ChildRegistry {
  readonly #live = new Map<ChildProcess, () => void>();
  #hooked = false;

  /** Tracks `child` until it exits; `kill` runs if this process exits first. Must not throw. */
  track(child: ChildProcess, kill: () => void): void {
    if (child.exitCode !== null || child.signalCode !== null) return;
    if (!this.#hooked) {
      this.#hooked = true;
      process.on('exit', () => this.killAll());
    }
    this.#live.set(child, kill);
    child.once('exit', () => this.#live.delete(child));
  }

  /** How many tracked children are still running. */
  get size(): number {
    return this.#live.size;
  }

  /** Kills every tracked child now (synchronous: the exit hook calls it). */
  killAll(): void {
    for (const kill of this.#live.values()) {
      try {
        kill();
      } catch {
        // Already gone.
      }
    }
  }
}
