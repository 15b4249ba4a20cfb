// A list of named, timed checks: each passes with a detail or fails with the reason.
import { sleep } from '@clawdie/kit/timing';

export interface CheckResult {
  name: string;
  ok: boolean;
  /** Wall-clock time of the check, in milliseconds. */
  ms: number;
  detail: string;
}

/** Thrown inside a check to fail it with `message` as the detail. */
export class CheckFailed extends Error {
  readonly code = 'CHECK_FAILED';
}

export function fail(message: string): never {
  throw new CheckFailed(message);
}

export class CheckList {
  readonly results: CheckResult[] = [];

  /** Runs `body`; its resolved string is the detail. Never throws; returns whether it passed. */
  async run(name: string, body: () => Promise<string>): Promise<boolean> {
    const started = performance.now();
    let ok = true;
    let detail: string;
    try {
      detail = await body();
    } catch (error) {
      ok = false;
      detail = error instanceof CheckFailed ? error.message : describeError(error);
    }
    const ms = Math.round((performance.now() - started) * 10) / 10;
    this.results.push({ name, ok, ms, detail });
    return ok;
  }

  get ok(): boolean {
    return this.results.every((result) => result.ok);
  }
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  const cause = error.cause instanceof Error ? ` (cause: ${error.cause.message})` : '';
  return `${typeof code === 'string' ? `${code}: ` : ''}${error.message}${cause}`;
}

/** Polls `probe` every 50 ms until it returns true or `timeoutMs` passes. */
export async function eventually(probe: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() >= deadline) return false;
    await sleep(50);
  }
  return true;
}
