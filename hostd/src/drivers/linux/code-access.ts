import { statSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * The directories on the way to `path` that an unprivileged clone uid cannot traverse (no `x` for
 * others). Clones run the jail-service as their own uid, so the code must be reachable by it: a
 * normal install (/opt, /usr/local, a home checkout with o+x) is; a `mktemp -d` (0700) is not.
 */
export function untraversableAncestors(path: string): string[] {
  const blocked: string[] = [];
  let current = path;
  for (;;) {
    const mode = statSync(current).mode;
    if ((mode & 0o001) === 0) blocked.push(current);
    const parent = dirname(current);
    if (parent === current) return blocked.reverse();
    current = parent;
  }
}

/** A clear error naming what to change, or null when clones can reach every path. */
export function codeAccessProblem(paths: readonly string[]): string | null {
  const blocked = [...new Set(paths.flatMap(untraversableAncestors))];
  if (blocked.length === 0) return null;
  return `unprivileged users (clones, the local browser) cannot reach the jail-service code: ${blocked.join(', ')} lack execute permission for others; run: chmod o+x ${blocked.join(' ')} (or install Clawdie under a world-traversable directory such as /opt)`;
}
