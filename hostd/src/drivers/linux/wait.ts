// Readiness waits for a clone's processes: a health URL answering 200, or a first output line.

import type { LaunchedProcess } from '@clawdie/kit/runner';
import { pollHealth } from '@clawdie/kit/timing';

/** The first pause; then doubling up to POLL_MAX_MS. */
const POLL_MS = 5;
/**
 * The longest pause between attempts. Long enough that a start (≈ 0.5–1 s) costs a handful of
 * requests, not one every 5 ms: the service's `jail-service listening` line (`listening`) ends
 * the pause, so the attempt that succeeds still comes as soon as the service listens.
 */
const POLL_MAX_MS = 100;

/** The line the jail-service logs (stderr, JSON) once it listens (run-service.ts). */
export function saysListening(line: string): boolean {
  return line.includes('"msg":"jail-service listening"');
}

/** Polls `${url}/health` with the bearer token until 200; throws on exit, timeout or abort. */
export async function waitForHealth(
  url: string,
  token: string,
  child: LaunchedProcess,
  timeoutMs: number,
  signal?: AbortSignal,
  listening?: Promise<void>,
): Promise<void> {
  const result = await pollHealth({
    url,
    token,
    exited: child.exited,
    timeoutMs,
    intervalMs: POLL_MS,
    maxIntervalMs: POLL_MAX_MS,
    ...(listening ? { wake: listening } : {}),
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
