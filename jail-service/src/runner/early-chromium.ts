// Chromium started before the rest of the jail-service loads (issue 24, 4): main.ts spawns it
// right after reading its config, and the service's modules (puppeteer, hono, the tools) load
// while Chromium starts; launch.ts then connects over the same DevTools pipe puppeteer.launch
// would have used (browser/early-connect.ts). Node built-ins only, so that nothing slow is loaded
// before the spawn.
import { type ChildProcess, spawn } from 'node:child_process';
import { chromiumArgs } from '../browser/chromium-args.js';

export type { ChildProcess };

export interface EarlyChromium {
  child: ChildProcess;
  /** True when it runs with its own sandbox (no --no-sandbox). */
  sandbox: boolean;
  /** Resolves with a description once it exited (never rejects). */
  exited: Promise<string>;
  /** The last of its stderr, for an error message. */
  stderrTail(): string;
}

export interface EarlyChromiumOptions {
  chromiumPath: string;
  /** Only with a fixed profile (a clone's): a temporary one is made by launch.ts. */
  userDataDir: string | null;
  proxyUrl: string | null;
  headless: boolean;
  sandbox: boolean | 'auto';
  env: Readonly<Record<string, string>>;
}

/** Spawns Chromium with the DevTools pipe on fds 3 and 4; null when this start does not apply. */
export function spawnEarlyChromium(options: EarlyChromiumOptions): EarlyChromium | null {
  if (!options.userDataDir) return null;
  // `auto` tries Chromium's own sandbox first, as launch.ts does.
  const sandbox = options.sandbox !== false;
  const args = chromiumArgs({ ...options, sandbox });
  const child = spawn(options.chromiumPath, ['--remote-debugging-pipe', ...args], {
    // Never this process's environment: it holds the bearer token.
    env: { ...options.env },
    stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'],
  });
  let tail = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-2000);
  });
  const exited = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) => resolve(signal ? `signal ${signal}` : `code ${code}`));
    child.once('error', (error) => resolve(error.message));
  });
  return { child, sandbox, exited, stderrTail: () => tail };
}
