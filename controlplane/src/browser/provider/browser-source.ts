// Where the platform's tasks get their browsers: hostd (a fresh clone per task, several at once)
// when CLAWDIE_HOSTD_URL is set, else the configured jail-service, else a local one the
// controlplane starts itself (one task at a time).
import { HostdClient } from '@clawdie/hostd/client';
import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import { AppError } from '../../errors.js';
import { createFleetBrowserProvider } from '../../fleet/fleet-browser-provider.js';
import type { FleetHosts } from '../../fleet/fleet-hosts.js';
import type { HostRegistry } from '../../fleet/host-registry.js';
import type { AuditLog } from '../../governance/audit/audit-log.js';
import type { ControlplaneLauncher } from '../../platform/runner/process-launcher.js';
import type { BrowserOperator } from '../operator/browser-operator.js';
import { createClawdieBrowserOperator } from '../operator/clawdie-browser-operator.js';
import type { ScreencastFeed } from '../operator/screencast-feed.js';
import {
  type BrowserProvider,
  createSingleBrowserProvider,
  type JailEndpoint,
  resetJailBrowser,
} from './browser-provider.js';
import { createHostdBrowserProvider } from './hostd-browser-provider.js';
import { holderName } from './lease-holder.js';
import { LOCAL_BROWSER_ID, startLocalEgress, withLocalEgress } from './local-egress.js';
import { type LocalJailService, startLocalJailService } from './local-jail-service.js';
import { createOrphanReaper, type LeaseHolders } from './orphan-clones.js';
import { screencastOf, type TaskBrowsers, trackLeases } from './task-browsers.js';

const HOSTD_EGRESS =
  "each clone's browser reaches only its task's domains (host:port) through hostd's egress proxy, and its network namespace/firewall lets nothing else out";
const CONFIGURED_JAIL_EGRESS =
  "NOT confined by Clawdie: the jail-service at CLAWDIE_JAIL_URL is yours to proxy; only the task's navigate actions are checked against its domains";

/** The banner's egress line in local mode: what holds, and what cannot without root. */
function localEgressLine(proxyUrl: string): string {
  return `the local browser reaches only its task's domains (host:port; nothing between tasks) through the egress proxy at ${proxyUrl}, the one hostd runs for clones. It is NOT a firewall without root: the proxy is a Chromium setting, so code that takes over the browser (a renderer exploit out of its sandbox) can open sockets directly, loopback included; hostd (root) gives each browser its own network namespace.`;
}

export interface BrowserSource {
  /** Leases per task, tracked in `browsers`. */
  provider: BrowserProvider;
  browsers: TaskBrowsers;
  /** The live screencast of the browser a task holds now (dashboard, recorder); null when none. */
  screencast: (taskId: string) => ScreencastFeed | null;
  /**
   * The one browser tasks share when there is no hostd; null with hostd. `egressProxyUrl`: the
   * proxy its every request goes through (null for a configured jail-service, not ours to proxy).
   */
  local: {
    operator: BrowserOperator;
    jail: JailEndpoint & { local: boolean };
    egressProxyUrl: string | null;
  } | null;
  hostd: { url: string; client: HostdClient; concurrency: number } | null;
  /** The registered jail hosts tasks are placed on (CLAWDIE_FLEET=on); null otherwise. */
  fleet: { registry: Pick<HostRegistry, 'list'>; concurrency: number } | null;
  /** One line for banners and the settings page. */
  description: string;
  /** One line for the banner: what confines the browsers' network, and what does not hold. */
  egress: string;
  close(): Promise<void>;
}

export async function openBrowserSource(
  config: Readonly<Config>,
  deps: {
    logger: Logger;
    env: Record<string, string | undefined>;
    audit: AuditLog;
    launcher: ControlplaneLauncher;
    /** The jail hosts, when CLAWDIE_FLEET=on (the composition root builds them over the store). */
    hosts?: FleetHosts | null;
    /** This controlplane (its store and instance, named on its leases) and its store's live ones. */
    holders: LeaseHolders;
  },
): Promise<BrowserSource> {
  if (config.fleet.enabled) {
    if (!deps.hosts)
      throw new AppError('FLEET_UNAVAILABLE', 'CLAWDIE_FLEET=on without a host registry');
    return openFleetBrowsers(config, deps.hosts, deps);
  }
  if (config.hostd) {
    const { url, token, concurrency } = config.hostd;
    const client = new HostdClient({ baseUrl: url, token });
    const health = await client.health().catch((error: unknown) => {
      throw new AppError(
        'HOSTD_UNAVAILABLE',
        `hostd at ${url} did not answer (${(error as Error).message}); start it (docs/operations.md) or unset CLAWDIE_HOSTD_URL to use one local browser`,
        { cause: error },
      );
    });
    if (health.isolation.level !== 'full')
      deps.logger.warn(
        { reasons: health.isolation.reasons },
        'hostd runs clones with REDUCED isolation on its host',
      );
    const reaper = createOrphanReaper(deps);
    const reap = async () => {
      await reaper.reap(client, await client.listClones());
    };
    // Before any task: the clones of controlplanes that are gone (a crashed predecessor's); then
    // every heartbeat interval, those of a replica sharing this hostd that died since.
    await reap();
    const reaping = repeat(config.fleet.heartbeatMs, reap, deps.logger);
    const tracked = trackLeases(
      createHostdBrowserProvider({
        client,
        logger: deps.logger,
        concurrency,
        audit: deps.audit,
        holder: holderOf(deps.holders),
      }),
    );
    return {
      ...tracked,
      screencast: screencastOf(tracked.browsers),
      local: null,
      hostd: { url, client, concurrency },
      fleet: null,
      description: `hostd at ${url} (${health.driver} driver, ${health.isolation.level} isolation): a fresh clone per task, ${concurrency} at once, warm pool ${health.pool.ready}/${health.pool.target}`,
      egress: HOSTD_EGRESS,
      close: reaping.stop,
    };
  }
  if (config.jail) {
    const operator = createClawdieBrowserOperator(config.jail);
    const tracked = trackLeases(createSingleBrowserProvider(operator, config.jail));
    return {
      ...tracked,
      screencast: screencastOf(tracked.browsers),
      local: { operator, jail: { ...config.jail, local: false }, egressProxyUrl: null },
      hostd: null,
      fleet: null,
      description: `jail-service at ${config.jail.url}: one browser, tasks queue for it`,
      egress: CONFIGURED_JAIL_EGRESS,
      close: async () => undefined,
    };
  }
  return openLocalBrowser(config, deps);
}

/** Every task's clone on one of the registered jail hosts, each reached with its own token. */
async function openFleetBrowsers(
  config: Readonly<Config>,
  hosts: FleetHosts,
  deps: { logger: Logger; audit: AuditLog; holders: LeaseHolders },
): Promise<BrowserSource> {
  const concurrency = config.embeddedHostd.concurrency;
  const reaper = createOrphanReaper(deps);
  const clientOf = (endpoint: { url: string; token: string }) =>
    new HostdClient({ baseUrl: endpoint.url, token: endpoint.token });
  const fleet = createFleetBrowserProvider({
    registry: hosts.registry,
    concurrency,
    // A jail host is another machine: its clones are reached through its hostd's relay.
    providerFor: (_host, endpoint) =>
      createHostdBrowserProvider({
        client: clientOf(endpoint),
        logger: deps.logger,
        concurrency,
        audit: deps.audit,
        relay: { baseUrl: endpoint.url, token: endpoint.token },
        holder: holderOf(deps.holders),
      }),
    revokeOrphans: async (host, endpoint) => {
      const client = clientOf(endpoint);
      await reaper.reap(client, await client.listClones(), { host, own: true });
    },
    hostAnswers: async (host) => {
      const endpoint = await hosts.registry.endpoint(host);
      const client = new HostdClient({
        baseUrl: endpoint.url,
        token: endpoint.token,
        timeoutMs: 2000,
      });
      return client.health().then(
        () => true,
        () => false,
      );
    },
    lossGraceMs: config.fleet.staleMs + config.fleet.heartbeatMs,
  });
  hosts.onHostChange((change) => fleet.hostChanged(change));
  // Every round, on every host that answers: the clones of controlplanes that are gone.
  hosts.onClones(async (host, clones) => {
    const client = clientOf(await hosts.registry.endpoint(host));
    await reaper.reap(client, clones, { host });
  });
  // Before any task: the first round, which clears the clones a crashed controlplane left.
  await hosts.start();
  const tracked = trackLeases(fleet);
  const registered = await hosts.registry.list();
  return {
    ...tracked,
    screencast: screencastOf(tracked.browsers),
    local: null,
    hostd: null,
    fleet: { registry: hosts.registry, concurrency },
    description: `${registered.length} registered jail host(s) (clawdie hosts list): a fresh clone per task on the least loaded host that fits, ${concurrency} at once`,
    egress: HOSTD_EGRESS,
    close: async () => undefined,
  };
}

/** No hostd, no configured jail-service: our own jail-service, behind our own egress proxy. */
async function openLocalBrowser(
  config: Readonly<Config>,
  deps: Parameters<typeof openBrowserSource>[1],
): Promise<BrowserSource> {
  const egress = await startLocalEgress({
    audit: deps.audit,
    logger: deps.logger,
    allowInternal: config.egressAllowInternal,
  });
  let started: LocalJailService;
  try {
    started = await startLocalJailService({
      env: deps.env,
      logger: deps.logger,
      launcher: deps.launcher,
      browserUid: config.localBrowser.uid,
      egressProxyUrl: egress.url,
    });
  } catch (error) {
    await egress.close();
    throw error;
  }
  const jail = { url: started.url, token: started.token };
  const operator = createClawdieBrowserOperator(jail);
  const reset = () => resetJailBrowser(jail);
  const tracked = trackLeases(
    withLocalEgress(createSingleBrowserProvider(operator, jail, LOCAL_BROWSER_ID, reset), egress),
  );
  return {
    ...tracked,
    screencast: screencastOf(tracked.browsers),
    local: { operator, jail: { ...jail, local: true }, egressProxyUrl: egress.url },
    hostd: null,
    fleet: null,
    description: `jail-service at ${jail.url} (local, started by the controlplane, ${started.summary}): one browser, tasks queue for it`,
    egress: localEgressLine(egress.url),
    close: async () => {
      await started.stop();
      await egress.close();
    },
  };
}

/** The holder this controlplane names on its leases: its store and instance. */
const holderOf = (holders: LeaseHolders) =>
  holderName({ store: holders.store, instance: holders.id });

/** Runs `work` every `intervalMs`, one at a time, until `stop` (which waits for the one in flight). */
function repeat(intervalMs: number, work: () => Promise<void>, logger: Logger) {
  let running = Promise.resolve();
  const timer = setInterval(() => {
    running = running
      .then(work)
      .catch((error: unknown) =>
        logger.warn({ err: error }, 'reaping the clones of controlplanes that are gone failed'),
      );
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
