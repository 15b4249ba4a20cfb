// A clone's /tmp is its own (a tmpfs in the sandbox): a jail-service there sweeps the temporary
// directories of gone processes (jail-service/src/temporary-dirs.ts) by pid, and in the clone's
// pid namespace every host pid looks gone — so were /tmp shared, a clone would delete the host's
// and other clones' directories, downloads included. A shell in the same sandbox a clone's
// jail-service gets (sandbox.ts `wrap` + `bubblewrap`, the clone's uid) tries to list, delete and
// add entries of the host's /tmp; none of it reaches the host. Real bubblewrap, as root.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { bubblewrap, wrap } from '../../hostd/src/drivers/linux/sandbox.js';
import { jailServiceCommand } from '../../hostd/src/drivers/select-driver.js';
import { requires } from '../support/capabilities.js';
import { acquireHostLock } from './support/host-lock.js';
import { testNames } from './support/linux-harness.js';

const run = promisify(execFile);

describe("a clone's /tmp is not the host's", requires('linux-clones'), () => {
  // A process of a test clone's uid counts as that clone's leftover to a driver listing the test
  // namespace (linux-observe-clone): hold the host lock those files hold while it runs.
  let releaseHostLock = () => {};
  before(async () => {
    releaseHostLock = await acquireHostLock();
  });
  after(() => releaseHostLock());
  it("a clone's uid inside its sandbox can neither see, delete nor add to the host's /tmp", async () => {
    const command = jailServiceCommand();
    // Clone 996's uid, its profile outside every hostd's state root (as sandbox-code-readonly).
    const names = {
      ...testNames(996),
      profileDir: mkdtempSync('/tmp/clawdie-sandbox-tmp-'),
    };
    chownSync(names.profileDir, names.uid, names.uid);
    // What the sweep would take for a gone jail-service's downloads, owned by the clone's uid so
    // that only the sandbox, not /tmp's sticky bit, keeps it from being deleted.
    const canary = `/tmp/clawdie-jail-downloads-${process.pid}-canary${names.uid}`;
    mkdirSync(canary);
    writeFileSync(join(canary, 'statement.pdf'), 'the user’s file\n');
    chownSync(canary, names.uid, names.uid);
    const added = `/tmp/clawdie-from-clone-${process.pid}`;
    try {
      const script = [
        'id -u',
        `ls -d ${canary} 2>/dev/null && echo seen || echo unseen`,
        `rm -rf ${canary}`,
        `echo x > ${added} && echo added`,
      ].join('; ');
      const argv = wrap(
        { names, procsFiles: [], netns: false },
        bubblewrap({ names, readOnly: command.binds, display: null, cwd: command.cwd }, [
          '/bin/sh',
          '-c',
          script,
        ]),
      );
      const [file, ...args] = argv;
      const { stdout } = await run(file, args, { timeout: 15_000 });
      assert.deepEqual(stdout.trim().split('\n'), [String(names.uid), 'unseen', 'added']);
      assert.ok(existsSync(join(canary, 'statement.pdf')), "the host's directory is untouched");
      assert.equal(
        existsSync(added),
        false,
        "what the clone wrote to its /tmp stays in the clone's",
      );
    } finally {
      rmSync(canary, { recursive: true, force: true });
      rmSync(added, { force: true });
      rmSync(names.profileDir, { recursive: true, force: true });
    }
  });
});
