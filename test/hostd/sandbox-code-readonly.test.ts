// A clone cannot change the code every clone runs: the jail-service bundle and its V8 code cache
// (compiled code, loaded without a source check) sit in the code directory the sandbox binds
// read-only. Nor can it reach the controlplane's bundle and code cache, which the controlplane
// itself runs: they are not in the sandbox at all. A shell inside the same sandbox a clone's
// jail-service gets (sandbox.ts `wrap` + `bubblewrap`, the clone's uid, the binds hostd uses)
// tries; the kernel refuses, and the files are unchanged. Real bubblewrap, as root.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { bubblewrap, wrap } from '../../hostd/src/drivers/linux/sandbox.js';
import { jailServiceCommand, SANDBOX_CODE_DIR } from '../../hostd/src/drivers/select-driver.js';
import { requires } from '../support/capabilities.js';
import { repositoryRoot } from '../support/repository-root.js';
import { acquireHostLock } from './support/host-lock.js';
import { testNames } from './support/linux-harness.js';

const run = promisify(execFile);

/**
 * Runs `script` under /bin/sh as clone 997's uid in the sandbox hostd gives a jail-service; returns
 * its output lines after two checks that the sandbox is the real one. The profile lies outside
 * every hostd's state root: no hostd of the tests (which may reconcile the test namespace
 * meanwhile) ever sees it.
 */
async function inCloneSandbox(script: string): Promise<string[]> {
  const command = jailServiceCommand();
  const names = {
    ...testNames(997),
    profileDir: mkdtempSync(join(tmpdir(), 'clawdie-sandbox-probe-')),
  };
  chownSync(names.profileDir, names.uid, names.uid);
  try {
    const [file, ...args] = wrap(
      { names, procsFiles: [], netns: false },
      bubblewrap({ names, readOnly: command.binds, display: null, cwd: command.cwd }, [
        '/bin/sh',
        '-c',
        `id -u; touch /profile/ok && echo profile-writable; ${script}`,
      ]),
    );
    const { stdout } = await run(file, args, { timeout: 15_000 });
    const lines = stdout.trim().split('\n');
    assert.equal(lines[0], String(names.uid), "the shell runs as the clone's uid");
    assert.equal(lines[1], 'profile-writable', 'the sandbox works: its profile is writable');
    return lines.slice(2);
  } finally {
    rmSync(names.profileDir, { recursive: true, force: true });
  }
}

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
    try {
      const targets = [
        `${SANDBOX_CODE_DIR}/jail-service/dist/bundle/.write-probe`,
        `${SANDBOX_CODE_DIR}/jail-service/dist/bundle/service.cache`,
        `${SANDBOX_CODE_DIR}/jail-service/dist/bundle/main.mjs`,
        `${SANDBOX_CODE_DIR}/node_modules/.clawdie-write-probe`,
      ];
      const lines = await inCloneSandbox(
        targets
          .map((path) => `(echo x >> ${path}) 2>/dev/null && echo "wrote ${path}" || echo refused`)
          .join('; '),
      );
      assert.deepEqual(lines, ['refused', 'refused', 'refused', 'refused']);
      assert.ok(readFileSync(cache).equals(before), 'the code cache is unchanged');
      assert.equal(
        readFileSync(probe, 'utf8'),
        'probe\n',
        'a world-writable file is unchanged too',
      );
    } finally {
      rmSync(probe, { force: true });
    }
  });

  it("a clone's sandbox holds neither the controlplane's bundle nor its code cache", async (t) => {
    const bundleDir = join(repositoryRoot, 'controlplane', 'dist', 'bundle');
    const cache = join(bundleDir, 'controlplane.cache');
    if (!existsSync(cache)) return t.skip('no controlplane bundle built (npm run build)');
    const before = readFileSync(cache);
    // Through the workspace link node_modules holds, at the code directory, at the host's path.
    const paths = [
      `${SANDBOX_CODE_DIR}/node_modules/@clawdie/controlplane/dist/bundle/controlplane.cache`,
      `${SANDBOX_CODE_DIR}/controlplane/dist/bundle/controlplane.cjs`,
      cache,
      join(bundleDir, 'controlplane.cjs'),
    ];
    const lines = await inCloneSandbox(
      [
        // The control: what the clone runs is there to read.
        `cat ${SANDBOX_CODE_DIR}/jail-service/dist/bundle/service.cache > /dev/null && echo reads-own`,
        ...paths.map(
          (path) =>
            `(cat ${path} > /dev/null || echo x >> ${path}) 2>/dev/null && echo "reached ${path}" || echo absent`,
        ),
      ].join('; '),
    );
    assert.deepEqual(lines, ['reads-own', 'absent', 'absent', 'absent', 'absent']);
    assert.ok(readFileSync(cache).equals(before), 'the code cache is unchanged');
  });
});
