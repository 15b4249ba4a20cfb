// Issue 20 point 6, hostd clones as root: the same hostile-model suite and case list
// (test/security/support/hostile-cases.ts) against the controlplane with a real in-process hostd —
// each task in its own Linux clone (network namespace, hostd's egress proxy with the task's
// allowlist), several at once. The three loopback sites are hostd egress exceptions, so only the
// policy and the task's domains (shop and payment host) keep the attacker out.
import { startHostdControlplane } from '../e2e/support/hostd-controlplane.js';
import { requires } from '../support/capabilities.js';
import { hostilePolicyExtra, registerHostileSuite } from './support/hostile-suite.js';

registerHostileSuite(
  {
    name: 'clones',
    concurrency: 4,
    async start(sites, model) {
      const started = await startHostdControlplane({
        concurrency: 4,
        sites: [sites.shop.host, sites.pay.host, sites.attacker.host],
        policyExtra: hostilePolicyExtra(sites),
        model: model.model,
      });
      return { controlplane: started.controlplane, close: started.close };
    },
  },
  requires('root', 'linux-clones', 'chromium'),
);
