// The composition root's start-up sweep (issue #19 point 3): a controlplane starting on a data
// dir stops the children a killed predecessor recorded there — only while pid AND start time
// still match — and keeps its own record there while it runs. Real processes, real files.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
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
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import {
  type ChildRecord,
  childRecordPath,
  isSameProcess,
  type ProcessIdentity,
  readProcessIdentity,
} from '@clawdie/kit/runner';
import { childEnvironment } from '../../../controlplane/src/platform/runner/child-environment.js';
import { childrenDirectory } from '../../../controlplane/src/platform/runner/child-sweep.js';
import { capturingLogger } from '../../support/capturing-logger.js';
import { createTestControlplane } from '../../support/controlplane.js';
import { testLauncher } from '../../support/test-launcher.js';

function dataDir(t: TestContext): string {
  const path = mkdtempSync(join(tmpdir(), 'clawdie-sweep-cp-'));
  t.after(() => rmSync(path, { recursive: true, force: true }));
  return path;
}

function sleeper(t: TestContext): { child: ChildProcess; identity: ProcessIdentity } {
  const child = spawn('/bin/sleep', ['60'], { detached: true, stdio: 'ignore' });
  t.after(() => child.kill('SIGKILL'));
  const identity = readProcessIdentity(child.pid ?? -1);
  assert.ok(identity);
  return { child, identity };
}

describe('the controlplane start-up sweep of recorded children', () => {
  it("stops a killed predecessor's live child, never a process that reuses a recorded pid", async (t) => {
    const dir = dataDir(t);
    const orphan = sleeper(t);
    const bystander = sleeper(t);
    // The predecessor: this pid with a start no running process has, i.e. gone.
    const owner = { pid: process.pid, start: 'a-controlplane-killed-earlier' };
    const record: ChildRecord = {
      owner,
      children: [
        { ...orphan.identity, command: 'node', signal: 'SIGKILL', group: false },
        // Recorded with another start: the pid now belongs to an unrelated process.
        {
          ...bystander.identity,
          start: 'earlier',
          command: 'node',
          signal: 'SIGKILL',
          group: false,
        },
      ],
    };
    const children = join(dir, 'children');
    const path = childRecordPath(children, owner);
    mkdirSync(children, { recursive: true });
    writeFileSync(path, JSON.stringify(record));

    const { logger, lines } = capturingLogger();
    const controlplane = await createTestControlplane({ env: { CLAWDIE_DATA_DIR: dir }, logger });
    t.after(() => controlplane.close());
    assert.equal(isSameProcess(orphan.identity), false, 'the orphan was stopped before start-up');
    assert.equal(isSameProcess(bystander.identity), true, 'the bystander was left alone');
    assert.equal(existsSync(path), false, 'the record is removed');
    const warning = lines
      .map((line) => JSON.parse(line))
      .find((entry) => entry.module === 'child-sweep');
    assert.equal(warning?.pid, orphan.identity.pid, lines.join(''));
  });

  it('records its own children in the data dir while it runs, and removes the record on close', async (t) => {
    const dir = dataDir(t);
    const controlplane = await createTestControlplane({ env: { CLAWDIE_DATA_DIR: dir } });
    const child = await testLauncher.launch({
      argv: ['/bin/sleep', '60'],
      env: childEnvironment({}),
    });
    t.after(() => child.kill());
    const files = readdirSync(childrenDirectory(dir));
    assert.equal(files.length, 1);
    const record = JSON.parse(
      readFileSync(join(childrenDirectory(dir), files[0] ?? ''), 'utf8'),
    ) as ChildRecord;
    assert.deepEqual(record.owner, readProcessIdentity(process.pid));
    const entry = record.children.find((recorded) => recorded.pid === child.pid);
    assert.deepEqual(entry, {
      ...readProcessIdentity(child.pid),
      command: 'sleep',
      signal: 'SIGKILL',
      group: false,
    });
    await controlplane.close();
    assert.deepEqual(readdirSync(childrenDirectory(dir)), [], 'no record after a clean close');
  });
});
