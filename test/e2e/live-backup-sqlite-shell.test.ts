// An admin's habit, against a real running server (`npm start` in local mode with no model, so
// its demo task runs): `sqlite3 clawdie.db ".backup …"`. The server's later writes — the demo
// task's end, its audit rows, its heartbeat — must stay visible to other processes, the live -wal
// must stay, and `clawdie audit verify` in another process must find the log intact (issue 19,
// point 1).
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { sleep } from '@clawdie/kit/timing';
import { requires } from '../support/capabilities.js';
import { CLAWDIE_ARGV } from '../support/current-build.js';
import { repositoryRoot, startServerProcess } from '../support/server-process.js';

/** The environment without this process's CLAWDIE_* settings. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('CLAWDIE_')),
  );
  return { ...env, ...extra };
}

/** A query answered by another process (the sqlite3 shell), as any reader would see the file. */
function query(path: string, sql: string): string {
  return execFileSync('sqlite3', [path, sql]).toString().trim();
}

describe('sqlite3 .backup against a live server', requires('chromium', 'sqlite3'), () => {
  it('keeps the live WAL and every later write of the server visible', async (t) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'clawdie-live-backup-'));
    const database = join(dataDir, 'clawdie.db');
    const server = startServerProcess(dataDir);
    t.after(async () => {
      if (server.child.exitCode === null) {
        server.child.kill('SIGTERM');
        await server.exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    });
    assert.ok(await server.listening(), server.output());

    execFileSync('sqlite3', [database, `.backup ${join(dataDir, 'admin-copy.db')}`]);
    assert.ok(existsSync(`${database}-wal`), 'the live -wal must survive the backup');

    // The server's own writes after the backup: its heartbeat (every 5 s) and the demo task's end.
    const beatBefore = Number(query(database, 'select max(heartbeat_at) from instances;'));
    let ended = '';
    let beatAfter = beatBefore;
    for (let i = 0; i < 900 && (!ended || beatAfter <= beatBefore); i++) {
      await sleep(100);
      ended = query(database, "select count(*) from tasks where status != 'running';");
      ended = ended === '0' ? '' : ended;
      beatAfter = Number(query(database, 'select max(heartbeat_at) from instances;') || 0);
    }
    assert.ok(
      beatAfter > beatBefore,
      `a heartbeat after the backup is visible\n${server.output()}`,
    );
    assert.ok(ended, `the demo task's end is visible to another process\n${server.output()}`);

    const verified = await promisify(execFile)(
      process.execPath,
      [...CLAWDIE_ARGV, 'audit', 'verify'],
      { cwd: repositoryRoot, env: cleanEnv({ CLAWDIE_DATA_DIR: dataDir }) },
    );
    assert.match(verified.stderr, /audit log intact/);
    assert.equal(query(database, 'pragma integrity_check;'), 'ok');
  });
});
