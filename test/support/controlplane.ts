// The controlplane as tests build it: the SAME composition root as `npm start` and the CLI
// (createControlplane), over a temporary data dir, with fake adapters — a scripted model, the fake
// browser operator (or the real browser source the config names), a silent logger — and,
// on request, served over HTTP on 127.0.0.1 at a free port.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { selectImageCodec } from '@clawdie/kit/images';
import { createAdaptorServer } from '@hono/node-server';
import type { Logger } from 'pino';
import type { VisionModel } from '../../controlplane/src/agent/model/chat-types.js';
import { createConfiguredJudge } from '../../controlplane/src/agent/model/configured-judge.js';
import type { BrowserOperator } from '../../controlplane/src/browser/operator/browser-operator.js';
import type { ScreencastFeed } from '../../controlplane/src/browser/operator/screencast-feed.js';
import { createSingleBrowserProvider } from '../../controlplane/src/browser/provider/browser-provider.js';
import {
  type BrowserSource,
  openBrowserSource,
} from '../../controlplane/src/browser/provider/browser-source.js';
import { trackLeases } from '../../controlplane/src/browser/provider/task-browsers.js';
import { type Clock, systemClock } from '../../controlplane/src/clock.js';
import type { ControlplaneAdapters } from '../../controlplane/src/composition/adapters.js';
import {
  type Controlplane,
  type ControlplaneOptions,
  createControlplane,
} from '../../controlplane/src/composition/create-controlplane.js';
import { type Config, loadConfig } from '../../controlplane/src/config.js';
import { createFakeOperator } from './fake-operator.js';
import { silentLogger } from './silent-logger.js';
import { testLauncher } from './test-launcher.js';

export interface TestControlplaneOptions {
  /** CLAWDIE_* variables on top of the test defaults (temp data dir, silent, auth off, no hostd). */
  env?: Record<string, string>;
  /** A config to use as it is instead (e.g. a second controlplane on another's data dir). */
  config?: Readonly<Config>;
  /** The model; omit for a controlplane without one (starting a task is a 503). */
  model?: VisionModel;
  /**
   * Where tasks get browsers: a fake operator (default: `createFakeOperator()`), or `'config'`
   * for the real browser source the config names (CLAWDIE_HOSTD_URL / CLAWDIE_JAIL_URL).
   */
  browsers?: BrowserOperator | 'config';
  /**
   * The task slots the browser source reports instead of its own (a single local browser reports
   * 1; keeping a browser for a follow-up needs a slot left free). 0: this controlplane claims no
   * task from a shared queue (a replica with no browser of its own).
   */
  browserSlots?: number;
  /** The fake source's live screencast per task (dashboard live view, recorder). */
  screencast?: (taskId: string) => ScreencastFeed | null;
  /**
   * Default `embedded`; `server` adds auth (CLAWDIE_ADMIN_TOKEN / JWKS) and its extras. Not `cli`
   * or `mcp`: they build no app.
   */
  role?: Exclude<ControlplaneOptions['role'], 'cli' | 'mcp'>;
  clock?: Clock;
  /** Heartbeat and timeout of its instance rows (default 5 s / 20 s). */
  liveness?: ControlplaneOptions['liveness'];
  newId?: () => string;
  logger?: Logger;
  /** Further adapters (embedded hostd, demo site, recorder, notice). */
  adapters?: Partial<ControlplaneAdapters>;
}

export interface TestControlplane extends Controlplane {
  dataDir: string;
  /** What the browsers adapter opened: leases, the tasks' browsers, hostd or the local one. */
  source: BrowserSource;
  /** Listens on 127.0.0.1 at a free port (once); closed by `close()`. */
  serve(): Promise<string>;
}

/**
 * A BrowserSource over one fake (or given) operator: tasks queue for it, as without hostd. Its
 * screencast is `screencast` (default: none).
 */
export function operatorBrowserSource(
  operator: BrowserOperator,
  screencast: (taskId: string) => ScreencastFeed | null = () => null,
): BrowserSource {
  const jail = { url: 'http://127.0.0.1:1', token: 'fake-jail-token' };
  return {
    ...trackLeases(createSingleBrowserProvider(operator, jail)),
    screencast,
    local: { operator, jail: { ...jail, local: false }, egressProxyUrl: null },
    hostd: null,
    fleet: null,
    description: 'fake operator (tests)',
    egress: 'fake operator (tests): no network',
    close: async () => undefined,
  };
}

/**
 * The test defaults: a fresh temp data dir (unless CLAWDIE_DATA_DIR is given), silent logs, auth
 * off, no embedded hostd, instant waits.
 */
export function testConfig(env: Record<string, string> = {}): Readonly<Config> {
  return loadConfig({
    CLAWDIE_DATA_DIR: env.CLAWDIE_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'clawdie-cp-')),
    CLAWDIE_LOG_LEVEL: 'silent',
    CLAWDIE_AUTH_REQUIRED: 'false',
    CLAWDIE_HOSTD: 'off',
    CLAWDIE_WAIT_MS: '0',
    ...env,
  });
}

/** Builds the controlplane through createControlplane; call `close()` in `after`. */
export async function createTestControlplane(
  options: TestControlplaneOptions = {},
): Promise<TestControlplane> {
  const config = options.config ?? testConfig(options.env);
  // The data dir this helper made (and removes on close).
  const ownDir = options.config === undefined && options.env?.CLAWDIE_DATA_DIR === undefined;
  const logger = options.logger ?? silentLogger;
  let source: BrowserSource | null = null;
  const adapters: ControlplaneAdapters = {
    logger,
    children: testLauncher.children,
    images: (effective) => selectImageCodec(effective.imageEncoder),
    clock: options.clock ?? systemClock,
    newId: options.newId ?? randomUUID,
    newAdminToken: () => `test-admin-${randomUUID()}`,
    notice: () => undefined,
    model: async () => options.model ?? null,
    // The judge the config names (CLAWDIE_JUDGE_*), as in production; `adapters.judge` replaces it.
    judge: createConfiguredJudge,
    browsers: async (effective, deps) => {
      source =
        options.browsers === 'config'
          ? withSlots(
              await openBrowserSource(effective, { ...deps, env: {}, launcher: testLauncher }),
              options.browserSlots,
            )
          : withSlots(
              operatorBrowserSource(
                options.browsers ?? createFakeOperator().operator,
                options.screencast,
              ),
              options.browserSlots,
            );
      return source;
    },
    ...options.adapters,
  };
  const controlplane = await createControlplane(config, adapters, {
    role: options.role ?? 'embedded',
    ...(options.liveness ? { liveness: options.liveness } : {}),
  }).catch((error: unknown) => {
    if (ownDir) rmSync(config.dataDir, { recursive: true, force: true });
    throw error;
  });
  let server: Server | null = null;
  return {
    ...controlplane,
    dataDir: config.dataDir,
    source: source as unknown as BrowserSource,
    async serve() {
      server ??= createAdaptorServer({ fetch: controlplane.app.fetch }) as Server;
      const listening = server;
      if (!listening.listening)
        await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
      await controlplane.listening(url);
      return url;
    },
    async close() {
      await controlplane.tasks.close();
      if (server) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server?.close(() => resolve()));
      }
      await controlplane.close();
      if (ownDir) rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}

/** `source` with its provider reporting `slots` task slots (unchanged without). */
function withSlots(source: BrowserSource, slots: number | undefined): BrowserSource {
  if (slots === undefined) return source;
  return { ...source, provider: { ...source.provider, concurrency: slots } };
}
