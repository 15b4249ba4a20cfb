// Starts a private Xvfb on a free display (`-displayfd`: the server picks the number and writes it
// once it accepts connections) and guarantees it dies with us.
import { type ChildProcess, spawn } from 'node:child_process';

export interface XvfbOptions {
  width: number;
  height: number;
  /** Bound on start-up (default 10 s). */
  timeoutMs?: number;
  /** The Xvfb binary (default `Xvfb` on PATH). */
  program?: string;
}

export interface XvfbDisplay {
  /** `:NN`, ready for connections. */
  display: string;
  pid: number;
  /** SIGTERM, SIGKILL after 3 s; resolves once the server has exited. Idempotent. */
  stop(): Promise<void>;
}

const live = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of live) child.kill('SIGKILL');
  });
}

/** Rejects (and leaves nothing running) when Xvfb cannot start or report its display in time. */
export function startXvfb(options: XvfbOptions): Promise<XvfbDisplay> {
  installExitHook();
  const { width, height } = options;
  const child = spawn(
    options.program ?? 'Xvfb',
    ['-displayfd', '1', '-screen', '0', `${width}x${height}x24`, '-nolisten', 'tcp', '-nocursor'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  live.add(child);
  const exited = new Promise<void>((resolve) => {
    child.once('close', () => {
      live.delete(child);
      resolve();
    });
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
    }
    await exited;
  };
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-2000);
  });
  return new Promise<XvfbDisplay>((resolve, reject) => {
    let output = '';
    const fail = (message: string) => {
      clearTimeout(timer);
      void stop()
        .catch(() => undefined)
        .then(() => reject(new Error(`${message}${stderr ? `: ${stderr.trim()}` : ''}`)));
    };
    const timer = setTimeout(
      () => fail(`Xvfb reported no display within ${options.timeoutMs ?? 10_000} ms`),
      options.timeoutMs ?? 10_000,
    );
    child.once('error', (error) => fail(`Xvfb could not start (${error.message})`));
    child.once('exit', (code) => fail(`Xvfb exited with code ${code}`));
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      const match = /^(\d+)\n/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      resolve({ display: `:${match[1]}`, pid: child.pid ?? -1, stop });
    });
  });
}
