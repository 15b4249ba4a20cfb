import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { SERVICE_NODE_FLAGS } from '@clawdie/jail-service/node-flags';
import { currentBundle } from '@clawdie/jail-service/service-bundle';
import { JAIL_SERVICE_VARIABLES } from '@clawdie/jail-service/variables';
import type { Logger } from 'pino';
import { AppError } from '../../errors.js';
import {
  type ChildEnvironment,
  childEnvironment,
  LOCALE_VARIABLES,
  pickVariables,
} from '../../platform/runner/child-environment.js';
import type {
  ControlplaneLauncher,
  LaunchedProcess,
} from '../../platform/runner/process-launcher.js';
import { freePort, nodeEntryArgv, waitForHealth } from './child-service.js';
import {
  type LocalBrowserUser,
  type LocalBrowserUserOptions,
  prepareLocalBrowserUser,
} from './local-browser-user.js';

/** Below hostd's clone uids (20 000 + index by default) and above ordinary accounts. */
export const DEFAULT_LOCAL_BROWSER_UID = 19_999;

export interface LocalJailService {
  url: string;
  token: string;
  process: LaunchedProcess;
  /** Who the browser runs as and whether Chromium keeps its sandbox (for the banner). */
  summary: string;
  stop(): Promise<void>;
}

export interface LocalJailOptions {
  /**
   * The controlplane's environment. Only the jail-service's own variables (its config schema's
   * names) and the locale are passed on: never the model key, admin, bot or hostd tokens.
   */
  env: Readonly<Record<string, string | undefined>>;
  logger: Logger;
  /** The process's one launcher (its entry made it). */
  launcher: ControlplaneLauncher;
  /**
   * CLAWDIE_LOCAL_BROWSER_UID: the uid the browser runs as when we are root (0: stay root);
   * default DEFAULT_LOCAL_BROWSER_UID.
   */
  browserUid?: number;
  /**
   * The egress proxy every request of the browser goes through (CLAWDIE_JAIL_PROXY: Chromium gets
   * the same proxy flags as a clone's); null leaves the browser's network unconfined (tests that
   * drive the jail-service directly). `openBrowserSource` always passes its local egress proxy.
   */
  egressProxyUrl: string | null;
  startTimeoutMs?: number;
  /** Injectable for tests: where the next start attempt listens. Default: a free loopback port. */
  pickPort?: () => Promise<number>;
  /** Injectable for tests. */
  prepareUser?: (options: LocalBrowserUserOptions) => Promise<LocalBrowserUser>;
}

/**
 * Starts a jail-service as a child process on 127.0.0.1 with a fresh random token and waits until
 * it answers /health. Used by `npm start` and the CLI on a single host until hostd hands out
 * clones. As root it runs as `browserUid` with Chromium's sandbox where the kernel allows it.
 * Rejects with JAIL_START_FAILED (including the child's last stderr lines) on failure.
 */
export async function startLocalJailService(options: LocalJailOptions): Promise<LocalJailService> {
  const token = randomBytes(24).toString('hex');
  const { argv, packageDir } = jailServiceArgv();
  const browser = await (options.prepareUser ?? prepareLocalBrowserUser)({
    uid: options.browserUid ?? DEFAULT_LOCAL_BROWSER_UID,
    codePaths: [packageDir, join(dirname(packageDir), 'node_modules'), process.execPath],
  });
  for (let attempt = 1; ; attempt++) {
    // The port is free when asked but another process may take it before the child binds it:
    // that start fails EADDRINUSE, and the next attempt asks again.
    const port = await (options.pickPort ?? freePort)();
    const url = `http://127.0.0.1:${port}`;
    let child: LaunchedProcess;
    try {
      child = await options.launcher.launch({
        argv,
        env: jailServiceEnvironment(options.env, {
          token,
          port,
          browser,
          proxyUrl: options.egressProxyUrl,
        }),
        cwd: browser.home,
        ...(browser.user ? { user: browser.user } : {}),
        // It must die with us however we die (SIGKILL too), closing its Chromium: the kernel's
        // parent-death signal where setpriv can set it (Linux), and a stdin pipe it watches.
        parentDeathSignal: 'SIGTERM',
        keepStdinOpen: true,
        onStderrLine: (line) => options.logger.debug({ jailService: line }, 'jail-service log'),
      });
    } catch (error) {
      await browser.remove();
      throw error;
    }
    const ready = await waitForHealth(url, token, child, options.startTimeoutMs ?? 30_000);
    if (!ready.ok) {
      await child.stop(1000);
      const tail = child.outputTail();
      if (attempt < PORT_ATTEMPTS && tail.includes('EADDRINUSE')) {
        options.logger.warn({ port, attempt }, 'jail-service port was taken; trying another');
        continue;
      }
      await browser.remove();
      throw new AppError(
        'JAIL_START_FAILED',
        `local jail-service did not start: ${ready.reason}\n${tail}`,
      );
    }
    options.logger.info(
      {
        url,
        pid: child.pid,
        uid: browser.user?.uid ?? null,
        sandbox: browser.sandbox,
        parentDeathSignal: child.parentDeathSignal,
      },
      'local jail-service ready',
    );
    const stop = async () => {
      await child.stop();
      await browser.remove();
    };
    return { url, token, process: child, summary: browser.summary, stop };
  }
}

/** Starts tried before a taken port is reported as a failure. */
const PORT_ATTEMPTS = 3;

/** The jail-service's whole environment: its own variables, the locale, its own HOME/TMPDIR. */
export function jailServiceEnvironment(
  parent: Readonly<Record<string, string | undefined>>,
  own: {
    token: string;
    port: number;
    browser: Pick<LocalBrowserUser, 'home' | 'sandbox'>;
    proxyUrl?: string | null;
  },
): ChildEnvironment {
  return childEnvironment({
    ...pickVariables(parent, LOCALE_VARIABLES),
    ...pickVariables(parent, ['DISPLAY', 'XAUTHORITY']),
    ...pickVariables(parent, JAIL_SERVICE_VARIABLES),
    HOME: own.browser.home,
    TMPDIR: own.browser.home,
    CLAWDIE_JAIL_TOKEN: own.token,
    CLAWDIE_JAIL_HOST: '127.0.0.1',
    CLAWDIE_JAIL_PORT: String(own.port),
    CLAWDIE_JAIL_CHROMIUM_SANDBOX: String(own.browser.sandbox),
    CLAWDIE_JAIL_STOP_WITH_PARENT: 'true',
    ...(own.proxyUrl ? { CLAWDIE_JAIL_PROXY: own.proxyUrl } : {}),
  });
}

/**
 * How to start the jail-service and its package directory. Compiled: the one-file bundle while it
 * is current (service-bundle.ts; ≈ 0.4 s less start-up than the ~700 compiled files), else
 * `dist/main.js`, with the flags a clone's runs with; under the `source` condition, its TypeScript
 * under tsx.
 */
export function jailServiceArgv(): { argv: [string, ...string[]]; packageDir: string } {
  const argv = nodeEntryArgv('@clawdie/jail-service/main');
  const entry = argv[argv.length - 1] ?? '';
  const packageDir = dirname(dirname(entry));
  if (entry.endsWith('.ts')) return { argv, packageDir };
  const dists = [join(packageDir, 'dist'), join(dirname(packageDir), 'kit', 'dist')];
  return {
    argv: [process.execPath, ...SERVICE_NODE_FLAGS, currentBundle(packageDir, dists) ?? entry],
    packageDir,
  };
}
