import type { EmbeddedHostd } from '../browser/provider/embedded-hostd.js';
import type { Config } from '../config.js';
import type { RunningDemoSite } from '../platform/demo/demo-site-server.js';
import type { ControlplaneAdapters } from './adapters.js';
import type { CloseStack } from './close-stack.js';

export interface ServingExtras {
  /** The config the rest is built from: `hostd` points at the embedded hostd when one started. */
  config: Readonly<Config>;
  demoSite: RunningDemoSite | null;
}

/**
 * What only `npm start` runs before its browsers: without a model, the replay demo's shop on
 * loopback first, so the embedded hostd can be told that one address:port (and nothing else on
 * the host) is reachable; then the embedded hostd when wanted (stopped last on close).
 */
export async function startServingExtras(
  loaded: Readonly<Config>,
  adapters: ControlplaneAdapters,
  stack: CloseStack,
): Promise<ServingExtras> {
  const { notice } = adapters;
  const wantsDemo = !loaded.model.url && !loaded.model.replayFile;
  const demoSite =
    wantsDemo && adapters.demoSite ? await adapters.demoSite().catch(() => null) : null;
  if (demoSite) stack.defer(() => demoSite.close());
  const hostd: EmbeddedHostd | null =
    (await adapters.embeddedHostd?.(loaded, {
      egressAllowInternal: [
        ...loaded.egressAllowInternal,
        ...(demoSite ? [new URL(demoSite.url).host] : []),
      ],
    })) ?? null;
  if (hostd) {
    stack.defer(async () => {
      notice('stopping hostd (destroying its clones) ...');
      await hostd.stop();
    });
  }
  if (!hostd && loaded.hostd && loaded.egressAllowInternal.length > 0) {
    notice(
      'CLAWDIE_EGRESS_ALLOW_INTERNAL is ignored: it applies to the hostd `npm start` runs itself and to its local browser; set CLAWDIE_HOSTD_EGRESS_ALLOW_INTERNAL on your hostd instead',
    );
  }
  if (!hostd && !loaded.hostd && loaded.jail && loaded.egressAllowInternal.length > 0) {
    notice(
      'CLAWDIE_EGRESS_ALLOW_INTERNAL is ignored: the jail-service at CLAWDIE_JAIL_URL is not behind an egress proxy of ours',
    );
  }
  if (!hostd && loaded.hostd && demoSite) {
    notice(
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
  return { config, demoSite };
}
