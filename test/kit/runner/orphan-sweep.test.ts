// The start-up sweep of @clawdie/kit/runner over real processes: it stops the recorded
// children of a gone owner, identified by pid AND start time, and leaves alone a process that
// only shares a recorded pid (issue #19 point 3).
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import {
  childRecordPath,
  isSameProcess,
  type ProcessIdentity,
  type RecordedChild,
  readProcessIdentity,
  sweepRecordedChildren,
} from '@clawdie/kit/runner';

const env = { PATH: '/usr/bin:/bin' };

function directory(t: TestContext): string {
  const path = mkdtempSync(join(tmpdir(), 'clawdie-sweep-'));
  t.after(() => rmSync(path, { recursive: true, force: true }));
  return path;
}

/** A real process in its own group, killed (group and all) after the test. */
function start(t: TestContext, script: string): { child: ChildProcess; identity: ProcessIdentity } {
  const child = spawn('/bin/sh', ['-c', script], { env, detached: true, stdio: 'ignore' });
  t.after(() => {
    try {
      process.kill(-(child.pid ?? 0), 'SIGKILL');
    } catch {
      // Gone.
    }
  });
  const identity = readProcessIdentity(child.pid ?? -1);
  assert.ok(identity, 'the process runs');
  return { child, identity };
}

function recorded(identity: ProcessIdentity, extra: Partial<RecordedChild> = {}): RecordedChild {
  return { ...identity, command: 'sh', signal: 'SIGKILL', group: false, ...extra };
}

/** An owner that is gone: this pid, but a start time no running process has. */
const goneOwner: ProcessIdentity = { pid: process.pid, start: 'not-this-process' };

function write(dir: string, owner: ProcessIdentity, children: RecordedChild[]): string {
  const path = childRecordPath(dir, owner);
  writeFileSync(path, JSON.stringify({ owner, children }));
  return path;
}

async function gone(identity: ProcessIdentity, ms = 5000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (isSameProcess(identity) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return !isSameProcess(identity);
}

describe('sweepRecordedChildren', () => {
  it('reads the identity as pid plus start time, and none for a missing pid', () => {
    const self = readProcessIdentity(process.pid);
    assert.ok(self);
    assert.equal(self.pid, process.pid);
    assert.equal(isSameProcess(self), true);
    assert.equal(isSameProcess({ ...self, start: `${self.start}0` }), false);
    assert.equal(readProcessIdentity(2 ** 22 + 1), null);
  });

  it('reads the same kind of identity from ps(1) on other platforms', {
    skip: ['/bin/ps', '/usr/bin/ps'].some((path) => existsSync(path))
      ? false
      : 'ps(1) missing (Debian package procps)',
  }, () => {
    const viaPs = readProcessIdentity(process.pid, { platform: 'freebsd' });
    assert.ok(viaPs?.start, 'ps -o lstart gave a start');
    assert.equal(isSameProcess(viaPs, { platform: 'freebsd' }), true);
    assert.equal(readProcessIdentity(2 ** 22 + 1, { platform: 'freebsd' }), null);
  });

  it("stops a gone owner's live child and leaves a process that only reuses a recorded pid", async (t) => {
    const dir = directory(t);
    const orphan = start(t, 'exec sleep 60');
    const bystander = start(t, 'exec sleep 60');
    // The record names the bystander's pid with another start: the pid was reused since.
    const reused = { pid: bystander.identity.pid, start: `${bystander.identity.start}-earlier` };
    const path = write(dir, goneOwner, [recorded(orphan.identity), recorded(reused)]);

    const result = await sweepRecordedChildren(dir);
    assert.deepEqual(
      result.stopped.map((child) => child.pid),
      [orphan.identity.pid],
    );
    assert.deepEqual(
      result.gone.map((child) => child.pid),
      [bystander.identity.pid],
    );
    assert.equal(await gone(orphan.identity), true, 'the orphan was killed');
    assert.equal(isSameProcess(bystander.identity), true, 'the bystander was NOT killed');
    assert.equal(existsSync(path), false, 'the record is removed');
  });

  it('signals the whole group of a group leader, and SIGKILLs after the grace what ignores its signal', async (t) => {
    const dir = directory(t);
    const group = start(t, 'sleep 60 & wait');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const stubborn = start(t, "trap '' TERM; sleep 60 & wait");
    await new Promise((resolve) => setTimeout(resolve, 100));
    write(dir, goneOwner, [
      recorded(group.identity, { group: true }),
      recorded(stubborn.identity, { signal: 'SIGTERM', group: true }),
    ]);
    const started = Date.now();
    const result = await sweepRecordedChildren(dir, { graceMs: 300 });
    assert.equal(result.stopped.length, 2);
    assert.ok(Date.now() - started >= 300, 'the SIGTERM child got its grace');
    assert.equal(await gone(group.identity), true);
    assert.equal(await gone(stubborn.identity), true, 'SIGKILL after the grace');
    for (const leader of [group.child.pid ?? 0, stubborn.child.pid ?? 0]) {
      assert.deepEqual(await groupEmptyWithin(leader, 5000), [], `nothing left in group ${leader}`);
    }
  });

  it('keeps the record and children of an owner that still runs, and drops unreadable files', async (t) => {
    const dir = directory(t);
    const child = start(t, 'exec sleep 60');
    const self = readProcessIdentity(process.pid);
    assert.ok(self);
    const path = write(dir, self, [recorded(child.identity)]);
    const broken = join(dir, 'children-1-broken.json');
    writeFileSync(broken, '{not json');
    const result = await sweepRecordedChildren(dir);
    assert.equal(result.liveOwners, 1);
    assert.deepEqual(result.stopped, []);
    assert.equal(isSameProcess(child.identity), true);
    assert.equal(existsSync(path), true);
    assert.equal(existsSync(broken), false);
    assert.deepEqual(await sweepRecordedChildren(join(dir, 'missing')), {
      stopped: [],
      gone: [],
      liveOwners: 0,
    });
  });
});

/** Polls until no live (non-zombie) process is left in group `leader`; returns those left. */
async function groupEmptyWithin(leader: number, ms: number): Promise<string[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const members = readdirSync('/proc').filter((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return group === String(leader) && state !== 'Z';
      } catch {
        return false;
      }
    });
    if (members.length === 0 || Date.now() >= deadline) return members;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
