// A controlplane in local mode (CLAWDIE_HOSTD=off) killed with SIGKILL: nothing it started — its
// jail-service (listening, with its token) and that service's Chromium — may outlive it (issue
// #19 point 3). Real processes, found in /proc by ancestry and by the run's unique browser home.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ChildRecord } from '@clawdie/kit/runner';
import { childrenDirectory } from '../../controlplane/src/platform/runner/child-sweep.js';
import { requires } from '../support/capabilities.js';
import {
  commandLine,
  killMarks,
  type ProcessMark,
  processesOfRun,
  waitForMarksGone,
} from '../support/chromium-processes.js';
import { demoReplayFile, startServerProcess } from '../support/server-process.js';

/** The browser homes (HOME and TMPDIR of the local jail-service) of controlplane `pid`. */
function browserHomes(pid: number): string[] {
  return readdirSync(tmpdir())
    .filter((name) => name.startsWith(`clawdie-browser-${pid}-`))
    .map((name) => join(tmpdir(), name));
}

describe('a local-mode controlplane killed with SIGKILL', requires('chromium'), () => {
  it('takes its jail-service and every Chromium process with it within seconds', async (t) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'clawdie-crash-'));
    const server = startServerProcess(dataDir, { CLAWDIE_REPLAY_FILE: demoReplayFile });
    const pid = server.child.pid ?? -1;
    const marker = `clawdie-browser-${pid}-`;
    let before: ProcessMark[] = [];
    t.after(() => {
      server.child.kill('SIGKILL');
      killMarks([...before, ...processesOfRun(pid, marker)]);
      for (const home of browserHomes(pid)) rmSync(home, { recursive: true, force: true });
      rmSync(dataDir, { recursive: true, force: true });
    });
    assert.ok(await server.listening(), server.output());

    before = processesOfRun(pid, marker);
    const jailService = before.filter((found) =>
      commandLine(found.pid).some((arg) => arg.includes('jail-service')),
    );
    assert.equal(jailService.length, 1, `one local jail-service: ${JSON.stringify(before)}`);
    assert.ok(
      before.some((found) => /chrom/i.test(found.command)),
      `the local jail-service runs Chromium: ${JSON.stringify(before)}`,
    );

    // The last resort, for the next start's sweep: the record names it by pid and start time.
    const records = readdirSync(childrenDirectory(dataDir)).map(
      (name) =>
        JSON.parse(readFileSync(join(childrenDirectory(dataDir), name), 'utf8')) as ChildRecord,
    );
    assert.equal(records.length, 1);
    assert.equal(records[0]?.owner.pid, pid);
    assert.deepEqual(
      records[0]?.children.map((child) => [child.pid, child.command]),
      [[jailService[0]?.pid, 'node']],
    );

    const killedAt = Date.now();
    server.child.kill('SIGKILL');
    await once(server.child, 'exit');
    const left = await waitForMarksGone(before, 10_000);
    const seconds = ((Date.now() - killedAt) / 1000).toFixed(1);
    assert.deepEqual(left, [], `still running ${seconds} s after the controlplane died`);
    assert.deepEqual(processesOfRun(pid, marker), [], 'nothing of the run appeared meanwhile');
    t.diagnostic(`${before.length} processes of the run gone ${seconds} s after SIGKILL`);
  });
});
