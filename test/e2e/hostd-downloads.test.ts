// Issue 23 (4): the download traps in a hostd clone as root (real Linux driver). The clone's
// browser downloads into its own writable area (/profile/downloads); the controlplane copies each
// finished file out through the clone's jail-service before hostd destroys the clone, and the
// clone leaves nothing behind.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { loopbackPrincipal } from '../../controlplane/src/governance/auth/scopes.js';
import { linuxDriverMissing } from '../hostd/support/linux-harness.js';
import { skipFile } from '../support/capabilities.js';
import { recordingTrapModel } from '../support/download-script.js';
import { type DownloadSite, startDownloadSite } from '../support/download-site.js';
import {
  type HostdControlplane,
  settledLeftovers,
  startHostdControlplane,
} from './support/hostd-controlplane.js';

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');
const missing = linuxDriverMissing();

if (!skipFile('download traps in hostd clones (real Linux driver)', missing)) {
  describe('download traps in hostd clones (real Linux driver)', () => {
    let site: DownloadSite;
    let h: HostdControlplane;
    before(async () => {
      site = await startDownloadSite();
      h = await startHostdControlplane({
        concurrency: 1,
        sites: [new URL(site.url).host],
        policyExtra: 'files: { download: allowed, max_file_bytes: 10485760 }\n',
      });
    });
    after(async () => {
      await h?.close();
      await site?.close();
    });

    it('copies the allowed files out intact, refuses the rest, and the clone leaves nothing', async () => {
      const recorded = recordingTrapModel();
      const tasks = h.controlplane.createTasks(recorded.model);
      const input = {
        instruction: 'Download the files',
        start_url: `${site.url}/`,
        domains: [new URL(site.url).host],
      };
      const result = await (await tasks.start(await tasks.admit(input, loopbackPrincipal))).done;
      assert.equal(result.status, 'finished', JSON.stringify(result));
      const artifacts = result.artifacts ?? [];
      assert.deepEqual(
        artifacts.map((artifact) => [artifact.name, artifact.sha256]),
        (['pdf', 'post', 'blob'] as const).map((trap) => [
          site.expected[trap].name,
          site.expected[trap].sha256,
        ]),
      );
      for (const artifact of artifacts)
        assert.equal(sha256(readFileSync(artifact.path)), artifact.sha256, artifact.name);
      const audit = await h.controlplane.audit.list({ taskId: result.trace_id, limit: 1000 });
      const refused = audit.filter((row) => row.type === 'download-refused');
      assert.deepEqual(
        refused.map((row) => [row.data.name, row.data.refusal]),
        [
          ['tool.exe', 'type_not_allowed'],
          ['big.bin', 'file_too_large'],
        ],
      );
      const stored = audit.filter((row) => row.type === 'artifact-stored');
      const destroyed = audit.find((row) => row.type === 'clone-destroyed');
      assert.equal(stored.length, 3);
      assert.ok(destroyed && stored.every((row) => row.seq < destroyed.seq), 'copied out first');
      assert.deepEqual(destroyed.data.leftovers, []);
      assert.deepEqual(await h.manager.list(), []);
      assert.deepEqual(await settledLeftovers(), []);
      await tasks.close();
    });
  });
}
