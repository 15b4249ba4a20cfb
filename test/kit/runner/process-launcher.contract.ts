// The contract of the ProcessLauncher port (@clawdie/kit/runner), run against each
// launcher: a child dies with its parent however the parent dies — SIGKILL included — through
// the guard its caller asks for (issue #19 point 3), and what no guard took down, the start-up
// sweep does, never touching a process that merely reuses a recorded pid.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, it, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { isSameProcess, readProcessIdentity, sweepRecordedChildren } from '@clawdie/kit/runner';

const parentScript = fileURLToPath(new URL('./support/launch-and-wait.ts', import.meta.url));
const setprivPresent = process.platform === 'linux' && existsSync('/usr/bin/setpriv');

interface Parent {
  parent: ChildProcess;
  child: { pid: number; parentDeathSignal: string | null };
}

/** Starts the parent process and reads which child it launched. */
async function startParent(t: TestContext, args: string[]): Promise<Parent> {
  const parent = spawn(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', parentScript, ...args],
    {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let childPid = 0;
  t.after(() => {
    parent.kill('SIGKILL');
    if (childPid > 0) killQuietly(childPid);
  });
  const [line] = (await once(createInterface({ input: parent.stdout }), 'line')) as [string];
  const child = JSON.parse(line) as Parent['child'];
  childPid = child.pid;
  return { parent, child };
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** Polls for up to `ms` until `identity` no longer names a running process. */
async function goneWithin(identity: { pid: number; start: string }, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (isSameProcess(identity) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return !isSameProcess(identity);
}

/** Kills the parent with SIGKILL (it can run no exit hook) and waits for it to be gone. */
async function killParent(parent: ChildProcess): Promise<void> {
  parent.kill('SIGKILL');
  if (parent.exitCode === null && parent.signalCode === null) await once(parent, 'exit');
}

export function processLauncherContract(name: string, kind: string): void {
  describe(`ProcessLauncher contract: ${name}`, () => {
    it('parentDeathSignal: the kernel kills the child when the parent dies by SIGKILL', {
      skip: setprivPresent ? false : 'needs Linux with /usr/bin/setpriv (util-linux)',
    }, async (t) => {
      const { parent, child } = await startParent(t, [kind, 'pdeathsig']);
      assert.equal(child.parentDeathSignal, 'SIGKILL', 'the launcher reports the signal it set');
      const identity = readProcessIdentity(child.pid);
      assert.ok(identity, 'the child runs');
      // setpriv execs the program itself: same pid, then the program's own command line.
      const commandLine = () => readFileSyncSafe(`/proc/${child.pid}/cmdline`).split('\0');
      for (let i = 0; i < 40 && commandLine()[0] !== '/bin/sleep'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      assert.deepEqual(commandLine(), ['/bin/sleep', '60', '']);
      await killParent(parent);
      assert.equal(await goneWithin(identity, 5000), true, 'the child outlived its parent');
    });

    it('keepStdinOpen: the child holds a pipe that reaches EOF when the parent dies by SIGKILL', async (t) => {
      const { parent, child } = await startParent(t, [kind, 'stdin']);
      const identity = readProcessIdentity(child.pid);
      assert.ok(identity, 'the child runs');
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(isSameProcess(identity), true, 'no EOF while the parent lives');
      await killParent(parent);
      assert.equal(await goneWithin(identity, 5000), true, 'cat never read EOF');
    });

    it('recordIn + sweep: a child no guard took down is stopped by the next start', async (t) => {
      const directory = mkdtempSync(join(tmpdir(), 'clawdie-children-'));
      t.after(() => rmSync(directory, { recursive: true, force: true }));
      const { parent, child } = await startParent(t, [kind, 'record', directory]);
      const identity = readProcessIdentity(child.pid);
      assert.ok(identity);
      assert.equal(readdirSync(directory).length, 1, 'one record file for the parent');
      const alive = await sweepRecordedChildren(directory);
      assert.deepEqual(alive.stopped, [], 'a live owner keeps its children');
      assert.equal(alive.liveOwners, 1);
      await killParent(parent);
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(isSameProcess(identity), true, 'without a guard the child survives SIGKILL');
      const swept = await sweepRecordedChildren(directory);
      assert.deepEqual(
        swept.stopped.map((found) => [found.pid, found.command]),
        [[child.pid, 'sleep']],
      );
      assert.equal(await goneWithin(identity, 5000), true, 'the sweep stopped it');
      assert.deepEqual(readdirSync(directory), [], 'the record is removed');
    });
  });
}

function readFileSyncSafe(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}
