// Starts a private Xvfb on a free display (`-displayfd`: the server picks the number and writes it
// once it accepts connections), for tests and benches. Built on the controlplane's process
// launcher, which kills it when the test process exits.
import { childEnvironment } from '../../controlplane/src/platform/runner/child-environment.js';
import type { LaunchedProcess } from '../../controlplane/src/platform/runner/process-launcher.js';
import { testLauncher } from './test-launcher.js';

export interface XvfbOptions {
  width: number;
  height: number;
  /** Bound on start-up (default 10 s). */
  timeoutMs?: number;
  /** The Xvfb binary (default `/usr/bin/Xvfb`). */
  program?: string;
}

export interface XvfbDisplay {
  /** `:NN`, ready for connections. */
  display: string;
  pid: number;
  /** SIGTERM, SIGKILL after 3 s; resolves once the server has exited. Idempotent. */
  stop(): Promise<void>;
}

/** Rejects (and leaves nothing running) when Xvfb cannot start or report its display in time. */
export async function startXvfb(options: XvfbOptions): Promise<XvfbDisplay> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  let report: (line: string) => void = () => undefined;
  const reported = new Promise<string>((resolve) => {
    report = resolve;
  });
  let child: LaunchedProcess;
  try {
    child = await testLauncher.launch({
      argv: [
        options.program ?? '/usr/bin/Xvfb',
        ...['-displayfd', '1', '-screen', '0', `${options.width}x${options.height}x24`],
        ...['-nolisten', 'tcp', '-nocursor'],
      ],
      env: childEnvironment({ PATH: '/usr/bin:/bin' }),
      onStdoutLine: (line) => report(line),
    });
  } catch (error) {
    throw new Error(`Xvfb could not start (${(error as Error).message})`);
  }
  const stop = () => child.stop(3000);
  let timer: NodeJS.Timeout | undefined;
  const failure = await Promise.race([
    reported.then((line) => (/^\d+$/.test(line.trim()) ? null : `Xvfb reported "${line}"`)),
    child.exited.then((code) => `Xvfb exited with code ${code}`),
    new Promise<string>((resolve) => {
      timer = setTimeout(
        () => resolve(`Xvfb reported no display within ${timeoutMs} ms`),
        timeoutMs,
      );
    }),
  ]);
  clearTimeout(timer);
  if (failure !== null) {
    await stop();
    const tail = child.outputTail().trim();
    throw new Error(`${failure}${tail ? `: ${tail}` : ''}`);
  }
  return { display: `:${(await reported).trim()}`, pid: child.pid, stop };
}
