import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { checkListenAddress, startupApiAuth } from './auth/api-auth.js';
import { createProgressPrinter, printLine, printResult } from './cli/cli-output.js';
import { demoBanner, runDemo } from './cli/demo-command.js';
import { loadConfig, processEnv } from './config.js';
import { dashboardLogin } from './dashboard/dashboard-login-hint.js';
import { createDashboardOptions } from './dashboard/dashboard-wiring.js';
import { hostdHosts, singleJailHosts } from './dashboard/hosts-views.js';
import { type RunningDemoSite, startDemoSite } from './demo/demo-site-server.js';
import { createApp } from './http/app.js';
import { startEmbeddedHostdIfWanted } from './jails/embedded-hostd.js';
import { screencastOf } from './jails/task-browsers.js';
import { createLogger } from './logger.js';
import { claimDataDirAt } from './ownership/data-dir-owner.js';
import { type Platform, startPlatform } from './platform.js';
import { createAvailableRecorder } from './recording/ffmpeg-recorder.js';
import { createUnavailableTaskService } from './tasks/unavailable-task-service.js';
import { createBrowserWaitService } from './wait/browser-wait-service.js';

/**
 * `npm start`: the controlplane HTTP API on CLAWDIE_HOST:CLAWDIE_PORT, with its browsers from hostd
 * (CLAWDIE_HOSTD_URL, or a hostd it starts itself as root on Linux or FreeBSD: a fresh clone per task), else
 * from CLAWDIE_JAIL_URL or a local jail-service. Without a model it runs the labelled replay demo.
 * Resolves with the exit code after SIGINT/SIGTERM, once everything is closed.
 */
export async function serve(): Promise<number> {
  const env = processEnv();
  const loaded = loadConfig(env);
  const logger = createLogger(loaded.logLevel);
  // Without a configured admin token (or a JWKS file), a one-off token keeps the dashboard and
  // the API usable on this host; it is printed once and changes at every start.
  const generatedAdminToken =
    loaded.adminToken || existsSync(loaded.auth.jwksFile)
      ? null
      : randomBytes(18).toString('base64url');
  const adminToken = loaded.adminToken ?? generatedAdminToken;
  const auth = await startupApiAuth(loaded.auth, adminToken);
  const authWarning = checkListenAddress(loaded.host, auth !== null);
  // Before anything else starts: a second server on the same data directory is refused here.
  const owner = claimDataDirAt(loaded.databasePath, {
    kind: 'server',
    dataDir: loaded.dataDir,
    logger,
  });
  // Without a model the replay demo runs: its shop listens on loopback first, so the embedded
  // hostd can be told that one address:port (and nothing else on the host) is reachable.
  const demoSite =
    loaded.model.url || loaded.model.replayFile ? null : await startDemoSite().catch(() => null);
  const hostd = await startEmbeddedHostdIfWanted(loaded, {
    env,
    logger,
    notice: printLine,
    egressAllowInternal: [
      ...loaded.egressAllowInternal,
      ...(demoSite ? [new URL(demoSite.url).host] : []),
    ],
  }).catch(async (error: unknown) => {
    owner.close();
    await demoSite?.close();
    throw error;
  });
  if (!hostd && loaded.egressAllowInternal.length > 0) {
    printLine(
      'CLAWDIE_EGRESS_ALLOW_INTERNAL is ignored: it applies to the hostd `npm start` runs itself; set CLAWDIE_HOSTD_EGRESS_ALLOW_INTERNAL on your hostd instead',
    );
  }
  if (!hostd && loaded.hostd && demoSite) {
    printLine(
      `the replay demo's shop is on ${new URL(demoSite.url).host}: your hostd's clones reach it only if its CLAWDIE_HOSTD_EGRESS_ALLOW_INTERNAL names exactly that`,
    );
  }
  const config = hostd
    ? {
        ...loaded,
        hostd: {
          url: hostd.url,
          token: hostd.token,
          concurrency: loaded.embeddedHostd.concurrency,
        },
      }
    : loaded;
  const platform = await startPlatform(config, logger, env, owner).catch(async (error: unknown) => {
    await hostd?.stop();
    await demoSite?.close();
    throw error;
  });
  const { browsers } = platform;
  const recorder = createAvailableRecorder({
    feedFor: screencastOf(browsers.browsers),
    dataDir: config.dataDir,
    logger,
  });
  const tasks = platform.model
    ? platform.createTasks(platform.model, { recorder })
    : createUnavailableTaskService();
  const app = createApp({
    tasks,
    repository: platform.repository,
    logger,
    defaultMaxSteps: config.loop.maxSteps,
    maxBodyBytes: config.maxBodyBytes,
    auth: auth ? { verifier: auth.verifier, failures: config.authFailures } : null,
    audit: platform.audit,
    approvals: platform.approvals,
    takeover: platform.takeover.app,
    waits: createBrowserWaitService({ browsers: browsers.browsers, local: browsers.local }),
    dashboard:
      createDashboardOptions({
        config,
        browserSource: browsers.description,
        browsers: browsers.browsers,
        policies: platform.policies,
        hosts: browsers.hostd
          ? hostdHosts(browsers.hostd.client, browsers.hostd.url, browsers.hostd.concurrency)
          : singleJailHosts(
              { url: browsers.local?.jail.url ?? '', startedAt: Date.now() },
              browsers.browsers,
            ),
        audit: platform.audit,
        approvals: platform.approvals,
        adminToken,
        tokenVerifier: auth?.verifier,
      }) ?? undefined,
    describe: () => ({
      model: {
        name: platform.model?.name ?? 'not configured',
        replay: platform.model?.isReplay ?? false,
      },
      jail: { url: browsers.hostd?.url ?? browsers.local?.jail.url ?? '' },
    }),
  });
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  owner.setUrl(`http://${config.host}:${port}`);
  platform.takeover.setPublicUrl(`http://${config.host}:${port}`);
  printBanner(platform, `http://${config.host}:${port}`);
  printLine(
    authWarning ??
      (auth?.mode === 'jwt'
        ? `API auth: bearer tokens signed by ${config.auth.jwksFile}`
        : 'API auth: on; send Authorization: Bearer <admin token> (CLAWDIE_ADMIN_TOKEN or the one printed below), or run `clawdie keys rotate` for per-tenant tokens'),
  );
  printLine(
    `dashboard: http://${config.host}:${port}/dashboard  ${dashboardLogin(generatedAdminToken, config.adminToken)}`,
  );

  const stop = new AbortController();
  const demo = platform.model ? Promise.resolve() : runDemoOnce(platform, stop.signal, demoSite);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  printLine('shutting down ...');
  stop.abort();
  await tasks.close();
  await demo;
  await demoSite?.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  await platform.close();
  if (hostd) {
    printLine('stopping hostd (destroying its clones) ...');
    await hostd.stop();
  }
  return 0;
}

function printBanner(platform: Platform, url: string): void {
  printLine(
    `Clawdie controlplane listening on ${url}  (REST: ${url}/v1/tasks · MCP: ${url}/mcp · OpenAPI: ${url}/openapi.json)`,
  );
  printLine(`browsers: ${platform.browsers.description}`);
  printLine(`data: ${platform.config.dataDir}`);
  if (platform.model) {
    printLine(
      `model: ${platform.model.name}${platform.model.isReplay ? ' (REPLAY)' : ''} at ${platform.config.model.url ?? platform.config.model.replayFile}`,
    );
    return;
  }
  printLine(
    'model: not configured. Point Clawdie at any OpenAI-compatible server that serves UI-TARS:',
  );
  printLine(
    '  CLAWDIE_MODEL_URL=http://127.0.0.1:8000/v1 CLAWDIE_MODEL_NAME=ui-tars-1.5-7b npm start',
  );
}

async function runDemoOnce(
  platform: Platform,
  signal: AbortSignal,
  site: RunningDemoSite | null,
): Promise<void> {
  printLine(demoBanner);
  try {
    const { result, expected } = await runDemo(platform, {
      signal,
      ...(site ? { site } : {}),
      onEvent: createProgressPrinter(15),
    });
    printResult(result);
    printLine(
      `demo ${result.status === 'finished' && result.summary === expected ? 'succeeded' : 'did not succeed'}; expected answer: ${expected}`,
    );
  } catch (error) {
    printLine(`demo failed: ${(error as Error).message}`);
  }
}
