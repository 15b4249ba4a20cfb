// The owner lock of a clone namespace on real files (a temp directory stands in for
// /var/run/clawdie-hostd-owners): a live holder is refused with its pid, a dead one is taken over,
// a namespace sharing the slot of a live one is refused, and release removes only its own lock.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { cloneNamespace, namespaceSlot } from '../../hostd/src/drivers/clone-namespace.js';
import { HostdError } from '../../hostd/src/errors.js';
import { claimNamespace } from '../../hostd/src/ownership/namespace-owner.js';
import { processStartTime } from '../../hostd/src/ownership/owner-record.js';

const root = mkdtempSync(join(tmpdir(), 'owner-lock-'));
after(() => rmSync(root, { recursive: true, force: true }));
let count = 0;
const freshDir = () => {
  count += 1;
  return join(root, `dir-${count}`);
};
const test = cloneNamespace('test');

function refusedWith(pattern: RegExp) {
  return (error: unknown) =>
    error instanceof HostdError && error.code === 'NAMESPACE_TAKEN' && pattern.test(error.message);
}

describe('claimNamespace', () => {
  it('writes a lock naming this pid; a second claim is refused naming it; release frees it', async () => {
    const dir = freshDir();
    const owner = await claimNamespace({ namespace: test, dir });
    const record = JSON.parse(readFileSync(owner.path, 'utf8'));
    assert.equal(record.pid, process.pid);
    assert.equal(record.slot, test.slot);
    await assert.rejects(
      claimNamespace({ namespace: test, dir }),
      refusedWith(
        new RegExp(`another hostd \\(pid ${process.pid}, .*"test".*CLAWDIE_HOSTD_NAMESPACE`),
      ),
    );
    owner.release();
    owner.release();
    assert.equal(existsSync(owner.path), false);
    (await claimNamespace({ namespace: test, dir })).release();
  });

  it('refuses while another live process holds it, and takes it over once that process is dead', async () => {
    const dir = freshDir();
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    const pid = holder.pid ?? -1;
    const lock = join(dir, 'test.lock');
    (await claimNamespace({ namespace: test, dir })).release();
    const startTime = processStartTime(pid) ?? '';
    const record = { pid, startTime, namespace: 'test', slot: test.slot, since: 'x' };
    writeFileSync(lock, JSON.stringify(record));
    await assert.rejects(
      claimNamespace({ namespace: test, dir }),
      refusedWith(new RegExp(`pid ${pid}`)),
    );
    holder.kill('SIGKILL');
    await new Promise((resolve) => holder.once('exit', resolve));
    const stale: (number | null)[] = [];
    const owner = await claimNamespace({
      namespace: test,
      dir,
      onTakeover: (seen) => stale.push(seen?.pid ?? null),
    });
    assert.deepEqual(stale, [pid]);
    assert.equal(JSON.parse(readFileSync(lock, 'utf8')).pid, process.pid);
    owner.release();
  });

  it('takes over a lock whose pid now belongs to another process (start time differs)', async () => {
    const dir = freshDir();
    (await claimNamespace({ namespace: test, dir })).release();
    const record = {
      pid: process.pid,
      startTime: 'not-mine',
      namespace: 'test',
      slot: 6,
      since: '',
    };
    writeFileSync(join(dir, 'test.lock'), JSON.stringify(record));
    (await claimNamespace({ namespace: test, dir })).release();
  });

  it('refuses a namespace whose slot a live hostd of another namespace holds', async () => {
    const dir = freshDir();
    assert.equal(namespaceSlot('testb'), namespaceSlot('tests'));
    const first = await claimNamespace({ namespace: cloneNamespace('testb'), dir });
    await assert.rejects(
      claimNamespace({ namespace: cloneNamespace('tests'), dir }),
      refusedWith(/"tests" shares slot 7 .* "testb" owned by hostd pid \d+/),
    );
    assert.equal(existsSync(join(dir, 'tests.lock')), false, 'the refused claim left no lock');
    first.release();
    (await claimNamespace({ namespace: cloneNamespace('tests'), dir })).release();
  });

  it('release leaves a lock that another process has taken meanwhile', async () => {
    const dir = freshDir();
    const owner = await claimNamespace({ namespace: test, dir });
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    writeFileSync(owner.path, JSON.stringify({ pid: dead, startTime: '', namespace: 'test' }));
    owner.release();
    assert.equal(existsSync(owner.path), true);
  });
});
