// A clone cannot change the code every clone runs: the jail-service bundle and its V8 code cache
// (compiled code, loaded without a source check) sit in the code directory the sandbox binds
// read-only. A shell inside the same sandbox a clone's jail-service gets (sandbox.ts `wrap` +
// `bubblewrap`, the clone's uid, the binds hostd uses) tries to write each; the kernel refuses,
// and the files are unchanged. Real bubblewrap, as root.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { bubblewrap, wrap } from '../../hostd/src/drivers/linux/sandbox.js';
import { jailServiceCommand, SANDBOX_CODE_DIR } from '../../hostd/src/drivers/select-driver.js';
import { requires } from '../support/capabilities.js';
import { acquireHostLock } from './support/host-lock.js';
import { testNames } from './support/linux-harness.js';

const run = promisify(execFile);

describe('the sandbox keeps the code directory read-only', requires('linux-clones'), () => {
  // A process of a test clone's uid counts as that clone's leftover to a driver listing the test
  // namespace (linux-observe-clone): hold the host lock those files hold while it runs.
  let releaseHostLock = () => {};
  before(async () => {
    releaseHostLock = await acquireHostLock();
  });
  after(() => releaseHostLock());
  it("a clone's uid inside its sandbox cannot write the bundle, its code cache or node_modules", async (t) => {
    const command = jailServiceCommand();
    const bundle = command.binds.find((bind) => bind.target.endsWith('/jail-service'));
    assert.ok(bundle, JSON.stringify(command.binds));
    const cache = join(bundle.source, 'dist', 'bundle', 'service.cache');
    let before: Buffer;
    try {
      before = readFileSync(cache);
    } catch {
      return t.skip('no jail-service bundle built (npm run build)');
    }
    // A file the clone's uid may write by its mode: only the read-only bind can refuse it.
    const probe = join(bundle.source, 'dist', 'bundle', '.write-probe');
    writeFileSync(probe, 'probe\n');
    chmodSync(probe, 0o666);
    // Clone 997's uid, but a profile outside every hostd's state root: no hostd of the tests
    // (which may reconcile the test namespace meanwhile) ever sees this probe.
    const names = {
      ...testNames(997),
      profileDir: mkdtempSync(join(tmpdir(), 'clawdie-sandbox-probe-')),
    };
    chownSync(names.profileDir, names.uid, names.uid);
    try {
      const targets = [
        `${SANDBOX_CODE_DIR}/jail-service/dist/bundle/.write-probe`,
        `${SANDBOX_CODE_DIR}/jail-service/dist/bundle/service.cache`,
        `${SANDBOX_CODE_DIR}/jail-service/dist/bundle/main.mjs`,
        `${SANDBOX_CODE_DIR}/node_modules/.clawdie-write-probe`,
      ];
      const script = targets
        .map((path) => `(echo x >> ${path}) 2>/dev/null && echo "wrote ${path}" || echo refused`)
        .join('; ');
      const argv = wrap(
        { names, procsFiles: [], netns: false },
        bubblewrap({ names, readOnly: command.binds, display: null, cwd: command.cwd }, [
          '/bin/sh',
          '-c',
          `id -u; touch /profile/ok && echo profile-writable; ${script}`,
        ]),
      );
      const [file, ...args] = argv;
      const { stdout } = await run(file, args, { timeout: 15_000 });
      const lines = stdout.trim().split('\n');
      assert.equal(lines[0], String(names.uid), "the shell runs as the clone's uid");
      assert.equal(lines[1], 'profile-writable', 'the sandbox works: its profile is writable');
      assert.deepEqual(lines.slice(2), ['refused', 'refused', 'refused', 'refused']);
      assert.ok(readFileSync(cache).equals(before), 'the code cache is unchanged');
      assert.equal(
        readFileSync(probe, 'utf8'),
        'probe\n',
        'a world-writable file is unchanged too',
      );
    } finally {
      rmSync(probe, { force: true });
      rmSync(names.profileDir, { recursive: true, force: true });
    }
  });
});
