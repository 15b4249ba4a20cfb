// The controlplane's own children in its data dir (issue #19 point 3): a controlplane killed with
// SIGKILL cannot stop its local jail-service, embedded hostd or ffmpeg; the next one to start on
// the same data dir does, from the record the dead one kept in `<data dir>/children/`.
import { join } from 'node:path';
import { type ChildRegistry, sweepRecordedChildren } from '@clawdie/kit/runner';
import type { Logger } from 'pino';

/** As long as a stopping embedded hostd gets from the controlplane itself. */
const GENTLE_GRACE_MS = 30_000;

/** Where the record of a controlplane's live children is kept, under its data dir. */
export function childrenDirectory(dataDir: string): string {
  return join(dataDir, 'children');
}

/**
 * Stops the children that gone controlplanes recorded in `dataDir` (only while their pid and
 * start time still match: a reused pid is never signalled), then records `children` there until
 * the returned release runs. Call it once the data dir is claimed, before any child starts.
 * Never throws.
 */
export async function sweepAndRecordChildren(
  dataDir: string,
  children: ChildRegistry,
  logger: Logger,
): Promise<() => void> {
  const log = logger.child({ module: 'child-sweep' });
  const directory = childrenDirectory(dataDir);
  // An embedded hostd (recorded with SIGTERM) may still be destroying clones: let it finish.
  const swept = await sweepRecordedChildren(directory, { graceMs: GENTLE_GRACE_MS });
  for (const child of swept.stopped) {
    log.warn(
      { pid: child.pid, command: child.command, signal: child.signal },
      'stopped a child process left running by a controlplane that died without stopping it',
    );
  }
  return children.recordIn(directory, (error) =>
    log.warn({ err: error }, 'cannot record the child processes in the data dir'),
  );
}
