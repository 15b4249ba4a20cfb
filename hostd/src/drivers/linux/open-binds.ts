import { closeSync, openSync } from 'node:fs';
import type { ReadOnlyBind } from './sandbox.js';

/**
 * Opens every `{source, target}` bind's source directory (as hostd, i.e. root) and rewrites it to
 * `{fd, target}` with the fd number the child will see (3, 4, … in order). `close()` releases the
 * parent's copies once the child has been spawned. Throws when a source cannot be opened.
 */
export function openBinds(binds: readonly ReadOnlyBind[]): {
  binds: ReadOnlyBind[];
  fds: number[];
  close(): void;
} {
  const fds: number[] = [];
  try {
    const rewritten = binds.map((bind): ReadOnlyBind => {
      if (typeof bind === 'string' || !('source' in bind)) return bind;
      fds.push(openSync(bind.source, 'r'));
      return { fd: 2 + fds.length, target: bind.target };
    });
    return { binds: rewritten, fds, close: () => closeAll(fds) };
  } catch (error) {
    closeAll(fds);
    throw error;
  }
}

function closeAll(fds: number[]): void {
  for (const fd of fds.splice(0)) {
    try {
      closeSync(fd);
    } catch {
      // Already closed: nothing to release.
    }
  }
}
