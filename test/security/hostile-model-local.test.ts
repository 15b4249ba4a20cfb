// Issue 20 point 6, local mode: the hostile-model suite (test/security/support/hostile-cases.ts)
// against the controlplane without hostd — it starts its own jail-service and Chromium behind its
// egress proxy (one browser: the cases run one after another). A real OpenAI-compatible model
// server plays the hostile model through the real model adapter; the shop, the payment host and
// the attacker are three loopback ports.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requires } from '../support/capabilities.js';
import { createTestControlplane } from '../support/controlplane.js';
import { hostilePolicyExtra, registerHostileSuite } from './support/hostile-suite.js';

registerHostileSuite(
  {
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
  },
  requires('chromium'),
);
