// The two modes the hostile-model suite runs in (hostile-suite.ts). Local mode's cases are split
// over two test files (hostileCasesPart; all 21 in one file ran 76 s on a loaded CI machine, near
// half the 180 s file timeout). Clones mode keeps them in one file: both halves hold the host lock
// (test/hostd/support/host-lock.ts) and, adjacent by name, the second waited 42–47 s for the first.
//   local: the controlplane without hostd starts its own jail-service and Chromium behind its
//     egress proxy (one browser: the cases run one after another).
//   clones: a real in-process hostd, each task in its own Linux clone (network namespace, hostd's
//     egress proxy with the task's allowlist), four at once. The three loopback sites are hostd
//     egress exceptions, so only the policy and the task's domains keep the attacker out.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHostdControlplane } from '../../e2e/support/hostd-controlplane.js';
import { createTestControlplane } from '../../support/controlplane.js';
import { type HostileMode, hostilePolicyExtra } from './hostile-suite.js';

export const localMode: HostileMode = {
  name: 'local',
  concurrency: 1,
  async start(sites, model) {
    const policyDir = mkdtempSync(join(tmpdir(), 'clawdie-hostile-policy-'));
    writeFileSync(
      join(policyDir, 'default.yaml'),
      `tenant: default\ndomains: { allow: ["${sites.shop.host}", "${sites.pay.host}"] }\nmax_steps: 8\n${hostilePolicyExtra(sites)}`,
    );
    const controlplane = await createTestControlplane({
      browsers: 'config',
      model: model.model,
      env: { CLAWDIE_POLICY_DIR: policyDir },
    });
    return {
      controlplane,
      close: async () => {
        await controlplane.close();
        rmSync(policyDir, { recursive: true, force: true });
      },
    };
  },
};

export const clonesMode: HostileMode = {
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
};
