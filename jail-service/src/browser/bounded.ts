import type { Logger } from 'pino';

/** Bound on each best-effort cleanup step (interrupt, close). */
export const CLEANUP_BOUND_MS = 3000;

/**
 * Waits for a best-effort step at most `limitMs`; logs instead of throwing. Resolves true when
 * the step finished in time without an error.
 */
export async function bounded(
  work: Promise<unknown>,
  logger: Logger,
  step: string,
  limitMs = CLEANUP_BOUND_MS,
): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), limitMs);
  });
  try {
    const result = await Promise.race([work.then(() => 'done' as const), limit]);
    if (result === 'timeout') logger.warn({ step, limitMs }, 'cleanup step timed out');
    return result === 'done';
  } catch (error) {
    logger.warn({ err: error, step }, 'cleanup step failed');
    return false;
  } finally {
    clearTimeout(timer);
  }
}
