// A test file that outlives its timeout leaves nothing running (test/support/reap-on-timeout.mjs):
// node:test ends it with SIGTERM and its `after` hooks never run, so what it started would stay.
// Here a fixture test file starts a process that starts another, records both pids, and hangs;
// a real `node --test` with a 2 s timeout ends it. With the preload both processes are gone; the
// same run without it leaves both alive (the control: the check can fail).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { repositoryRoot } from '../support/repository-root.js';

const dir = mkdtempSync(join(tmpdir(), 'clawdie-reap-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** CommonJS (no package.json here): starts a child that starts a grandchild, then hangs. */
const fixture = `const { spawn } = require('node:child_process');
const { writeFileSync } = require('node:fs');
const { test } = require('node:test');
test('starts two processes and hangs', async () => {
  const child = spawn(process.execPath, ['-e', ${JSON.stringify(
    "const c = require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }); console.log(c.pid); setInterval(() => {}, 1000);",
  )}], { stdio: ['ignore', 'pipe', 'ignore'] });
  const grandchild = await new Promise((resolve) => child.stdout.once('data', (d) => resolve(String(d).trim())));
  writeFileSync(process.env.PIDS_FILE, child.pid + ' ' + grandchild);
  await new Promise((resolve) => setTimeout(resolve, 60000));
});
`;

const alive = (pid: number) => existsSync(`/proc/${pid}`) && !/\) [ZX] /.test(stat(pid));
const stat = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return '';
  }
};

/** Runs the fixture under `node --test` (with the preload or not); the two pids it recorded. */
function runFixture(name: string, preload: boolean): number[] {
  const file = join(dir, `${name}.test.js`);
  writeFileSync(file, fixture);
  const pidsFile = join(dir, `${name}.pids`);
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] => entry[1] != null && entry[0] !== 'NODE_TEST_CONTEXT',
    ),
  );
  const preloads = preload
    ? ['--import', join(repositoryRoot, 'test', 'support', 'reap-on-timeout.mjs')]
    : [];
  const run = spawnSync(
    process.execPath,
    [...preloads, '--test', '--test-timeout=2000', '--test-force-exit', file],
    { cwd: dir, env: { ...env, PIDS_FILE: pidsFile }, encoding: 'utf8', timeout: 60_000 },
  );
  assert.notEqual(run.status, 0, 'the hanging file fails');
  return readFileSync(pidsFile, 'utf8').split(' ').map(Number);
}

describe('a test file ended by its timeout', {
  skip: !existsSync('/proc/self/stat') && 'no /proc',
}, () => {
  it('leaves none of the processes it started running', async () => {
    const pids = runFixture('reaped', true);
    assert.equal(pids.length, 2);
    // SIGKILLed before the file's process exited; the grandchild is reaped by init.
    const deadline = Date.now() + 5000;
    while (pids.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(pids.filter(alive), [], 'no process of the file is left');
  });

  it('the control: without the preload both stay behind', () => {
    const pids = runFixture('control', false);
    try {
      assert.deepEqual(pids.filter(alive), pids, 'both still running');
    } finally {
      for (const pid of pids) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {}
      }
    }
  });
});
