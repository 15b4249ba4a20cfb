#!/usr/bin/env node
import {
  ChildRegistry,
  ExecFileRunner,
  markRunning,
  type RunningMarker,
  SpawnLauncher,
} from '@clawdie/kit/runner';
import { onStopSignals } from '@clawdie/kit/stop-signals';
// Composition root: config → logger → running marker (kit's running-marker.ts) → runner, driver →
// owner lock of the clone namespace → clone manager → reconcile → listen.
import { serve } from '@hono/node-server';
import { createApp } from './app.js';
import { CloneManager } from './clones/clone-manager.js';
import { primeFirstScreenshot } from './clones/prime-screenshot.js';
import { type HostdConfig, loadConfig, processEnvironment } from './config.js';
import { type JailDriver, JailDriverError } from './drivers/jail-driver.js';
import { createDriver } from './drivers/select-driver.js';
import { createLogger } from './logger.js';
import { claimNamespace, type NamespaceOwner } from './ownership/namespace-owner.js';
import { createAddressPolicy } from './proxy/address-policy.js';

async function main(): Promise<void> {
  const config = loadConfig(processEnvironment());
  const logger = createLogger(config.logLevel);
  // While it runs, the bootstrap installs and rebuilds nothing in this checkout: clones bind its
  // code read-only (docs/operations.md, "Upgrade in this order"). Removed when it stops or fails.
  const running = markRunning('hostd');
  if (running.failure) {
    logger.warn(
      { marker: running.path, reason: running.failure },
      'could not record this hostd as running: a bootstrap of this checkout will not see it',
    );
  }
  try {
    await ownNamespaceAndServe(config, logger, running);
  } catch (error) {
    running.remove();
    throw error;
  }
}

/** Checks the host, takes the namespace's owner lock, then serves (serveClones). */
async function ownNamespaceAndServe(
  config: HostdConfig,
  logger: ReturnType<typeof createLogger>,
  running: RunningMarker,
): Promise<void> {
  const driver = createDriver(config, {
    runner: new ExecFileRunner(),
    launcher: new SpawnLauncher(new ChildRegistry()),
    onServiceLine: (name, line) => logger.debug({ clone: name, line }, 'jail-service'),
    onNotice: (message) => logger.warn(message),
  });
  const unprepared = (await driver.preflight?.()) ?? [];
  if (unprepared.length > 0) {
    throw new JailDriverError(
      'HOST_UNSUPPORTED',
      `the ${driver.kind} host is not prepared for clones:\n  ${unprepared.join('\n  ')}`,
    );
  }
  // Before anything that touches clones: a second hostd of this namespace would destroy the
  // first's clones in its reconcile (docs/operations.md, "Several hostd on one host").
  const owner = await claimNamespace({
    namespace: config.namespace,
    onTakeover: (stale, path) =>
      logger.warn(
        { path, stalePid: stale?.pid ?? null },
        'took over the owner lock of a dead hostd',
      ),
  });
  try {
    await serveClones(config, driver, logger, owner, running);
  } catch (error) {
    owner.release();
    throw error;
  }
}

/** Reconciles the namespace's clones, then serves until a signal (or the parent's end) stops it. */
async function serveClones(
  config: HostdConfig,
  driver: JailDriver,
  logger: ReturnType<typeof createLogger>,
  owner: NamespaceOwner,
  running: RunningMarker,
): Promise<void> {
  logger.info({ namespace: config.namespace.name, lock: owner.path }, 'owns the clone namespace');
  const isolation = await driver.probe();
  if (isolation.level !== 'full') {
    logger.warn({ reasons: isolation.reasons }, 'clones get REDUCED isolation on this host');
  }
  const addressPolicy = createAddressPolicy({
    internalExceptions: config.egressAllowInternal,
    allowPrivate: config.egressAllowPrivate,
  });
  if (config.egressAllowPrivate) {
    logger.warn(
      'CLAWDIE_HOSTD_EGRESS_ALLOW_PRIVATE: clones may reach private ranges (not this host)',
    );
  }
  if (addressPolicy.exceptions.length > 0) {
    logger.warn(
      { egressExceptions: addressPolicy.exceptions },
      'CLAWDIE_HOSTD_EGRESS_ALLOW_INTERNAL: clones may reach these host-internal address:port pairs when their allowlist names them',
    );
  }
  const manager = new CloneManager({
    addressPolicy,
    driver,
    defaultLimits: config.limits,
    defaultDisplay: config.display,
    proxyPort: config.proxyPort,
    poolSize: config.poolSize,
    poolMax: config.poolMax,
    poolWindowMs: config.poolWindowMs,
    refill: { maxWaitMs: config.poolQuietWaitMs },
    poolRetry: config.poolRetry,
    leaseRetentionMs: config.leaseRetentionMs,
    startTimeoutMs: config.startTimeoutMs,
    primeWarmClone: primeFirstScreenshot,
    onError: (message, error) => logger.error({ err: error }, message),
  });
  const reconciled = await manager.reconcile();
  logger.info(reconciled, 'reconciled clones left on the host');
  manager.refusals.subscribe((refusal) => logger.warn(refusal, 'egress refused'));
  manager.fillPool();
  const app = createApp({
    token: config.token,
    manager,
    driver,
    logError: (message, error) => logger.error({ err: error }, message),
  });
  const server = serve(
    config.socket
      ? { fetch: app.fetch, port: config.socket as unknown as number }
      : { fetch: app.fetch, hostname: config.host, port: config.port },
    (info) => logger.info({ address: config.socket ?? info }, 'hostd listening'),
  );
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping: destroying every clone');
    server.close();
    void manager
      .close()
      .catch((error: unknown) => logger.error({ err: error }, 'close failed'))
      .finally(() => {
        owner.release();
        running.remove();
        process.exit(0);
      });
  };
  onStopSignals(stop, config.stopWithParent);
}

void main().catch((error: unknown) => {
  process.stderr.write(`hostd: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
