// `clawdie setup --verify-host` against the real LinuxDriver (root, namespaces, bubblewrap,
// Chromium), built by hostd's own driver selection from CLAWDIE_HOSTD_* variables, run as the
// administrator runs it (`npm run setup -- --verify-host`: the CLI entry in a child process):
// every check passes, the exit code is 0, and the host is left clean.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { jailServiceCommand } from '../../hostd/src/drivers/select-driver.js';
import { acquireHostLock } from '../hostd/support/host-lock.js';
import {
  ensureCodeReachable,
  hostLeftovers,
  TEST_HOSTD_ENV,
} from '../hostd/support/linux-harness.js';
import { chromiumPath, missingCapabilities, skipFile } from '../support/capabilities.js';

const what = 'clawdie setup --verify-host on a real Linux host';

if (!skipFile(what, missingCapabilities('linux-clones', 'chromium'))) {
  describe(what, () => {
    let release: (() => void) | null = null;
    before(async () => {
      release = await acquireHostLock();
      ensureCodeReachable(jailServiceCommand().binds.map((bind) => bind.source));
    });
    after(() => release?.());

    it('passes every check through the LinuxDriver and exits 0, leaving nothing', async () => {
      const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
      const run = spawnSync(
        process.execPath,
        ['--conditions=source', '--import', 'tsx', 'setup/src/cli.ts', '--verify-host'],
        {
          cwd: root,
          encoding: 'utf8',
          timeout: 150_000,
          env: {
            PATH: process.env.PATH,
            ...TEST_HOSTD_ENV,
            CLAWDIE_CHROMIUM_PATH: chromiumPath,
            CLAWDIE_LOG_LEVEL: 'warn',
          },
        },
      );
      const text = run.stdout;
      console.error(text, run.stderr);
      assert.equal(run.status, 0, `${text}\n${run.stderr}`);
      assert.match(text, /^driver: +linux$/m);
      assert.match(text, /^isolation: full$/m);
      assert.match(text, /^os: +Linux /m);
      assert.doesNotMatch(text, /^FAIL/m);
      assert.match(text, /^PASS +jail-service screenshot +\d+\.\d ms +JPEG \d+ B$/m);
      assert.match(text, /^PASS +egress refused: the clone's own browser /m);
      assert.match(text, /^PASS +nothing left on the host /m);
      assert.match(text, /^result: PASS \(13 checks\)$/m);
      assert.deepEqual(hostLeftovers({ zombies: false }), []);
    });
  });
}
