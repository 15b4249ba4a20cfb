/**
 * Releases what the composition root opened, last opened first, each exactly once: for `close()`
 * and for a start that fails half-way. A failing release does not stop the others; the first
 * error is rethrown after all have run.
 */
export interface CloseStack {
  /** Registers a release to run before every release registered earlier. */
  defer(release: () => unknown): void;
  close(): Promise<void>;
}

export function createCloseStack(): CloseStack {
  const releases: (() => unknown)[] = [];
  let closing: Promise<void> | null = null;
  const run = async () => {
    let failure: unknown = null;
    for (const release of releases.splice(0).reverse()) {
      try {
        await release();
      } catch (error) {
        failure ??= error;
      }
    }
    if (failure) throw failure;
  };
  return {
    defer(release) {
      releases.push(release);
    },
    close() {
      closing ??= run();
      return closing;
    },
  };
}
