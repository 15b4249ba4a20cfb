// Issue 23 (4): the false-success traps in a hostd clone as root (real Linux driver). The clone's
// jail-service records what the click caused behind hostd's egress proxy; the verdict is the same
// as in local mode, and the clone leaves nothing behind.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loopbackPrincipal } from '../../controlplane/src/governance/auth/scopes.js';
import { linuxDriverMissing } from '../hostd/support/linux-harness.js';
import { skipFile } from '../support/capabilities.js';
import { startEvidenceTraps } from '../support/evidence-traps-site.js';
import { createPerTaskScriptModel } from '../support/per-task-script-model.js';
import type { StaticSite } from '../support/static-site.js';
import {
  type HostdControlplane,
  settledLeftovers,
  startHostdControlplane,
} from './support/hostd-controlplane.js';

const CLAIM = 'Payment of EUR 4,999 completed';
const missing = linuxDriverMissing();

if (!skipFile('false-success traps in hostd clones (real Linux driver)', missing)) {
  describe('false-success traps in hostd clones (real Linux driver)', () => {
    let site: StaticSite;
    let h: HostdControlplane;
    before(async () => {
      site = await startEvidenceTraps();
      h = await startHostdControlplane({ concurrency: 1, sites: [new URL(site.url).host] });
    });
    after(async () => {
      await h?.close();
      await site?.close();
    });

    async function trap(path: string) {
      const model = createPerTaskScriptModel([
        "Action: click(start_box='(500,400)')",
        `Action: finished(content='${CLAIM}')`,
      ]);
      const tasks = h.controlplane.createTasks(model);
      try {
        const input = {
          instruction: 'Pay the invoice',
          start_url: `${site.url}${path}`,
          domains: [new URL(site.url).host],
        };
        const result = await (await tasks.start(await tasks.admit(input, loopbackPrincipal))).done;
        assert.equal(result.status, 'finished', JSON.stringify(result));
        return result;
      } finally {
        await tasks.close();
      }
    }

    it('"Submitted!" over a POST that got 500 is unverified; 303 → 200 is verified', async () => {
      const failed = await trap('/pay-500');
      assert.equal(failed.verification?.verdict, 'unverified', JSON.stringify(failed));
      assert.deepEqual(
        failed.verification?.evidence.map(({ method, status }) => [method, status]),
        [['POST', 500]],
      );
      const ordered = await trap('/order');
      assert.equal(ordered.verification?.verdict, 'verified', JSON.stringify(ordered));
      const claimed = await trap('/claim');
      assert.equal(claimed.verification?.verdict, 'unverified', JSON.stringify(claimed));
      assert.deepEqual(await h.manager.list(), []);
      assert.deepEqual(await settledLeftovers(), []);
    });
  });
}
