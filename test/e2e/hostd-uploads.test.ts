// Issue 23 (2, 4): the upload-form trap in a hostd clone as root (real Linux driver). The file
// goes to the clone through its jail-service (/profile/uploads inside the clone), answers the
// chooser the model opened, reaches the site intact, and the clone leaves nothing behind.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { modelDivisors } from '../../controlplane/src/agent/uitars/index.js';
import { loopbackPrincipal } from '../../controlplane/src/governance/auth/scopes.js';
import { linuxDriverMissing } from '../hostd/support/linux-harness.js';
import { skipFile } from '../support/capabilities.js';
import { createPerTaskScriptModel } from '../support/per-task-script-model.js';
import { startUploadSite, UPLOAD_POINTS, type UploadSite } from '../support/upload-site.js';
import {
  type HostdControlplane,
  settledLeftovers,
  startHostdControlplane,
} from './support/hostd-controlplane.js';

const VIEWPORT = { width: 1280, height: 800 };
const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');
const missing = linuxDriverMissing();

function click(point: { x: number; y: number }): string {
  const divisors = modelDivisors('1.5', VIEWPORT);
  const x = Math.round((point.x / VIEWPORT.width) * divisors.width);
  const y = Math.round((point.y / VIEWPORT.height) * divisors.height);
  return `Thought: Next.\nAction: click(start_box='<|box_start|>(${x},${y})<|box_end|>')`;
}

if (!skipFile('upload trap in hostd clones (real Linux driver)', missing)) {
  describe('upload trap in hostd clones (real Linux driver)', () => {
    let site: UploadSite;
    let h: HostdControlplane;
    let scratch = '';
    const content = randomBytes(48 * 1024);
    before(async () => {
      site = await startUploadSite();
      scratch = mkdtempSync(join(tmpdir(), 'clawdie-hostd-uploads-'));
      mkdirSync(join(scratch, 'allowed'));
      writeFileSync(join(scratch, 'allowed', 'note.txt'), content);
      h = await startHostdControlplane({
        concurrency: 1,
        sites: [new URL(site.url).host],
        policyExtra: `files: { upload: allowed, upload_dirs: ["${join(scratch, 'allowed')}"] }\n`,
      });
    });
    after(async () => {
      await h?.close();
      await site?.close();
      if (scratch) rmSync(scratch, { recursive: true, force: true });
    });

    it('answers the chooser with the provided file, intact, and the clone leaves nothing', async () => {
      const tasks = h.controlplane.createTasks(
        createPerTaskScriptModel([
          click(UPLOAD_POINTS.input),
          click(UPLOAD_POINTS.submit),
          "Thought: Sent.\nAction: finished(content='uploaded')",
        ]),
      );
      try {
        const input = {
          instruction: 'Upload the note',
          start_url: `${site.url}/`,
          domains: [new URL(site.url).host],
          files: [{ name: 'note.txt', path: join(scratch, 'allowed', 'note.txt') }],
        };
        const result = await (await tasks.start(await tasks.admit(input, loopbackPrincipal))).done;
        assert.equal(result.status, 'finished', JSON.stringify(result));
        assert.deepEqual(site.received, [{ sha256: sha256(content), bytes: content.length }]);
        const audit = await h.controlplane.audit.list({ taskId: result.trace_id, limit: 1000 });
        assert.equal(audit.filter((row) => row.type === 'file-uploaded').length, 1);
        const destroyed = audit.find((row) => row.type === 'clone-destroyed');
        assert.deepEqual(destroyed?.data.leftovers, []);
        assert.deepEqual(await h.manager.list(), []);
        assert.deepEqual(await settledLeftovers(), []);
      } finally {
        await tasks.close();
      }
    });
  });
}
