// Readiness waits for a clone's processes: a health URL answering 200, or a first output line.

import type { LaunchedProcess } from '@clawdie/kit/runner';
import { pollHealth } from '@clawdie/kit/timing';

/** Short: a refused connection on the clone's veth costs well under a millisecond. */
const POLL_MS = 5;

/** Polls `${url}/health` with the bearer token until 200; throws on exit, timeout or abort. */
export async function waitForHealth(
  url: string,
  token: string,
  child: LaunchedProcess,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<void> {
  const result = await pollHealth({
    url,
    token,
    exited: child.exited,
    timeoutMs,
    intervalMs: POLL_MS,
    ...(signal ? { signal } : {}),
  });
  if (result.ok) return;
  if (result.why === 'aborted') throw new Error('start aborted');
  if (result.why === 'exited') {
    const how = result.exitCode === null ? 'killed by a signal' : `exit code ${result.exitCode}`;
    throw new Error(`the jail-service exited (${how}):\n${child.outputTail()}`);
  }
  throw new Error(`${result.reason}\n${child.outputTail()}`);
}

/** Resolves with the first line, or throws if the process exits or the time runs out first. */
export async function waitForLine(
  line: Promise<string>,
  child: LaunchedProcess,
  timeoutMs: number,
): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  const exit = child.exited.then((code) => {
    throw new Error(`exited with ${code} before answering:\n${child.outputTail()}`);
  });
  exit.catch(() => {});
  try {
    return await Promise.race([line, timeout, exit]);
  } finally {
    clearTimeout(timer);
  }
}
