// How a service process learns it must stop: SIGINT, SIGTERM, and — when its parent holds its
// stdin open for as long as it lives (CLAWDIE_*_STOP_WITH_PARENT) — the end of stdin. hostd and
// the jail-service both stop this way.

/** Calls `stop` with the reason on SIGINT, SIGTERM and, with `stopWithParent`, stdin's EOF. */
export function onStopSignals(stop: (reason: string) => void, stopWithParent: boolean): void {
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  if (!stopWithParent) return;
  // The parent holds our stdin open for as long as it lives: EOF means it is gone.
  process.stdin.on('end', () => stop('parent gone (stdin closed)'));
  process.stdin.on('error', () => stop('parent gone (stdin error)'));
  process.stdin.resume();
}
