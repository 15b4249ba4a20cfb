import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { acquireHostLock } from './support/host-lock.js';

const dir = mkdtempSync(`${tmpdir()}/host-lock-`);
after(() => rmSync(dir, { recursive: true, force: true }));
let count = 0;
const lockPath = () => {
  count += 1;
  return `${dir}/lock-${count}`;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const lockModule = fileURLToPath(new URL('./support/host-lock.ts', import.meta.url));

/** A separate node process that takes the lock, prints "locked", and holds it until killed or told. */
function holderProcess(path: string) {
  const script = `const { acquireHostLock } = await import(${JSON.stringify(lockModule)});
    await acquireHostLock({ path: ${JSON.stringify(path)}, pollMs: 20 });
    console.log('locked');
    process.stdin.on('data', () => process.exit(0));`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const locked = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('locked')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`holder exited early (${code})`)));
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return { child, locked, exited };
}

describe('acquireHostLock', () => {
  it('creates a lock naming this pid; release removes it and is idempotent', async () => {
    const path = lockPath();
    const release = await acquireHostLock({ path });
    assert.equal(readFileSync(`${path}/pid`, 'utf8').split('\n')[0], String(process.pid));
    release();
    release();
    assert.equal(existsSync(path), false);
  });

  it('a second acquirer waits (printing one line) until the first releases', async () => {
    const path = lockPath();
    const lines: string[] = [];
    const release = await acquireHostLock({ path });
    let second: (() => void) | null = null;
    const waiting = acquireHostLock({ path, pollMs: 10, log: (line) => lines.push(line) }).then(
      (releaseSecond) => {
        second = releaseSecond;
      },
    );
    await sleep(200);
    assert.equal(second, null, 'still waiting while the first holds the lock');
    assert.deepEqual(lines, [`waiting for the host lock held by pid ${process.pid} (${path})`]);
    release();
    await waiting;
    assert.ok(second);
    (second as () => void)();
    assert.equal(existsSync(path), false);
  });

  it('hands the lock on in the order the waiters asked, whoever polls first', async () => {
    const path = lockPath();
    const release = await acquireHostLock({ path });
    const order: string[] = [];
    const wait = (name: string, pollMs: number) =>
      acquireHostLock({ path, pollMs, log: () => {} }).then((releaseIt) => {
        order.push(name);
        releaseIt();
      });
    // The first to ask polls slowest: without a queue the later, faster ones would get it first.
    const all = [wait('first', 300)];
    await sleep(20);
    all.push(wait('second', 5));
    await sleep(20);
    all.push(wait('third', 5));
    await sleep(50);
    release();
    await Promise.all(all);
    assert.deepEqual(order, ['first', 'second', 'third']);
    assert.deepEqual(readdirSync(`${path}.queue`), [], 'no ticket is left');
  });

  it('skips and removes the ticket of a waiter that died in the queue', async () => {
    const path = lockPath();
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    mkdirSync(`${path}.queue`);
    writeFileSync(`${path}.queue/000000000000001-${dead}-000001`, `${dead}\n123\n`);
    const release = await acquireHostLock({ path, log: () => assert.fail('must not wait') });
    assert.deepEqual(readdirSync(`${path}.queue`), []);
    release();
  });

  it('removes what a killed waiter was preparing beside the lock, and only that', async () => {
    const path = lockPath();
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    const left = [`${path}.new-${dead}-abc`, `${path}.ticket-000000000000001-${dead}-000001`];
    const live = `${path}.new-${process.pid}-def`;
    mkdirSync(left[0] as string);
    writeFileSync(`${left[0]}/pid`, `${dead}\n`);
    writeFileSync(left[1] as string, `${dead}\n`);
    mkdirSync(live);
    (await acquireHostLock({ path, log: () => {} }))();
    assert.deepEqual(
      left.map((file) => existsSync(file)),
      [false, false],
    );
    assert.equal(existsSync(live), true, "a live process's staging is kept");
    rmSync(live, { recursive: true });
  });

  it('steals a lock whose holder pid is dead', async () => {
    const path = lockPath();
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    mkdirSync(path);
    writeFileSync(`${path}/pid`, `${dead}\n123\n`);
    const release = await acquireHostLock({ path, log: () => assert.fail('must not wait') });
    assert.equal(readFileSync(`${path}/pid`, 'utf8').split('\n')[0], String(process.pid));
    release();
  });

  it('steals a lock whose pid was reused by another process (start time differs)', async () => {
    const path = lockPath();
    mkdirSync(path);
    writeFileSync(`${path}/pid`, `${process.pid}\nnot-my-start-time\n`);
    const release = await acquireHostLock({ path, log: () => assert.fail('must not wait') });
    release();
  });

  it('serialises separate processes; a holder’s exit releases, a SIGKILLed holder is stolen', async () => {
    const path = lockPath();
    const first = holderProcess(path);
    await first.locked;
    const lines: string[] = [];
    let acquired = false;
    const waiting = acquireHostLock({ path, pollMs: 20, log: (line) => lines.push(line) });
    void waiting.then(() => {
      acquired = true;
    });
    await sleep(300);
    assert.equal(acquired, false);
    assert.deepEqual(lines, [`waiting for the host lock held by pid ${first.child.pid} (${path})`]);
    first.child.stdin.write('exit\n');
    await first.exited;
    const release = await waiting;
    release();

    const second = holderProcess(path);
    await second.locked;
    second.child.kill('SIGKILL');
    await second.exited;
    assert.ok(existsSync(path), 'a killed holder leaves its lock behind');
    (await acquireHostLock({ path, pollMs: 20, log: () => {} }))();
    assert.equal(existsSync(path), false);
  });
});
