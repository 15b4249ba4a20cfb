// `clawdie setup --verify-host` against the real LinuxDriver (root, namespaces, bubblewrap,
// Chromium), built by hostd's own driver selection from CLAWDIE_HOSTD_* variables, run as the
// administrator runs it (`npm run setup -- --verify-host`: the CLI entry in a child process):
// every check passes, the exit code is 0, and the host is left clean.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { jailServiceCommand } from '../../hostd/src/drivers/select-driver.js';
import { acquireHostLock } from '../hostd/support/host-lock.js';
import {
  createTestDriver,
  ensureCodeReachable,
  hostLeftovers,
  TEST_HOSTD_ENV,
  testNames,
} from '../hostd/support/linux-harness.js';
import { jailChromiumEnv, missingCapabilities, skipFile } from '../support/capabilities.js';
import { repositoryRoot } from '../support/repository-root.js';
import { runVerify } from './support/run-verify-cli.js';

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
      const root = repositoryRoot;
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
            ...jailChromiumEnv,
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
      // From inside the clone's network namespace: only the proxy answers.
      assert.match(
        text,
        /^PASS +from inside the clone: a direct connection to the host fails .*\(a listener on the host\): (timeout|error E\w+)$/m,
      );
      assert.match(
        text,
        /^PASS +from inside the clone: a direct connection to another clone's jail-service fails .*:9223 /m,
      );
      assert.match(
        text,
        /^PASS +from inside the clone: a direct connection to a public address fails .*1\.1\.1\.1:443 /m,
      );
      assert.match(
        text,
        /^PASS +from inside the clone: its egress proxy answers .*:3128: HTTP\/1\.1 403/m,
      );
      assert.match(text, /^result: PASS \(19 checks\)$/m);
      assert.deepEqual(hostLeftovers({ zombies: false }), []);
    });

    it("fails, naming what was reachable, when the clone's nftables table has a hole to the host", async () => {
      const driver = createTestDriver({
        serviceEnv: { CLAWDIE_LOG_LEVEL: 'warn', ...jailChromiumEnv },
      });
      const start = driver.start.bind(driver);
      driver.start = async (name, options) => {
        const info = await start(name, options);
        // The deliberate hole: the clone may send anything to its host end.
        const names = testNames(info.index);
        execFileSync('/usr/sbin/ip', [
          ...['netns', 'exec', names.netns],
          ...['/usr/sbin/nft', 'insert', 'rule', 'inet', 'clawdie', 'output'],
          ...['ip', 'daddr', names.hostAddress, 'accept'],
        ]);
        return info;
      };
      const { code, text } = await runVerify({
        env: { ...TEST_HOSTD_ENV },
        verifyDriver: () => driver,
      });
      console.error(text);
      assert.equal(code, 1, text);
      assert.match(
        text,
        /^FAIL +from inside the clone: a direct connection to the host fails .*reachable from inside browsertasktest001: 10\.78\.\d+\.\d+:\d+ \(a listener on the host\) — connected$/m,
      );
      assert.match(
        text,
        /^PASS +from inside the clone: a direct connection to a public address fails /m,
      );
      assert.match(text, /^PASS +from inside the clone: its egress proxy answers /m);
      assert.match(text, /^PASS +nothing left on the host /m);
      assert.deepEqual(hostLeftovers({ zombies: false }), []);
    });
  });
}
