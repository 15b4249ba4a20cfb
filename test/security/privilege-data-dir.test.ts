// Issue 12, found 10 / "What must hold" 5: clawdie.db was 0644 in a 0755 data dir. The real start
// path (the composition root, real SQLite on a real directory, process umask 022): a fresh data dir is
// 0700 with the database, its -wal and -shm 0600 and screenshots owner-only; an existing install
// with looser modes is tightened at start, and the start-up log says what changed.
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { loadConfig } from '../../controlplane/src/config.js';
import { createScreenshotFiles } from '../../controlplane/src/platform/store/screenshot-files.js';
import { capturingLogger } from '../support/capturing-logger.js';
import { createTestControlplane } from '../support/controlplane.js';

const roots: string[] = [];
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function mode(path: string): string {
  return (statSync(path).mode & 0o777).toString(8);
}

function configFor(dataDir: string) {
  // A configured (unreachable) jail-service: the platform starts without launching a browser.
  return loadConfig({
    CLAWDIE_DATA_DIR: dataDir,
    CLAWDIE_JAIL_URL: 'http://127.0.0.1:9',
    CLAWDIE_JAIL_TOKEN: 'jail-token-0123456789abcdef',
    CLAWDIE_HOSTD: 'off',
  });
}

describe('data dir permissions', () => {
  const previousUmask = process.umask(0o022);
  after(() => process.umask(previousUmask));

  it('a fresh data dir is 0700; the database, -wal and -shm 0600; screenshots owner-only', async () => {
    const root = mkdtempSync(join(tmpdir(), 'clawdie-modes-'));
    roots.push(root);
    const dataDir = join(root, 'data');
    const config = configFor(dataDir);
    const platform = await createTestControlplane({ config, browsers: 'config' });
    try {
      await platform.audit.append({ type: 'task-started', actor: 'system', data: {} });
      const shot = await createScreenshotFiles(dataDir).save(
        'task-1',
        'step-001',
        Buffer.from('x'),
      );
      assert.deepEqual(
        {
          dataDir: mode(dataDir),
          db: mode(config.databasePath),
          wal: mode(`${config.databasePath}-wal`),
          shm: mode(`${config.databasePath}-shm`),
          traces: mode(join(dataDir, 'traces')),
          taskTraces: mode(join(dataDir, 'traces', 'task-1')),
          screenshot: mode(shot),
        },
        {
          dataDir: '700',
          db: '600',
          wal: '600',
          shm: '600',
          traces: '700',
          taskTraces: '700',
          screenshot: '600',
        },
      );
    } finally {
      await platform.close();
    }
  });

  it('an existing install with 0755/0644 modes is tightened at start, and the log says so', async () => {
    const root = mkdtempSync(join(tmpdir(), 'clawdie-modes-'));
    roots.push(root);
    const dataDir = join(root, 'data');
    const config = configFor(dataDir);
    mkdirSync(join(dataDir, 'traces', 'old-task'), { recursive: true, mode: 0o755 });
    writeFileSync(join(dataDir, 'traces', 'old-task', 'final.jpg'), 'x');
    const old = new Database(config.databasePath);
    old.pragma('journal_mode = WAL');
    old.exec('CREATE TABLE leftover (x)');
    old.exec('INSERT INTO leftover VALUES (1)');
    for (const path of [dataDir, join(dataDir, 'traces'), join(dataDir, 'traces', 'old-task')])
      chmodSync(path, 0o755);
    for (const suffix of ['', '-wal', '-shm']) chmodSync(`${config.databasePath}${suffix}`, 0o644);
    const { logger, lines } = capturingLogger();
    const platform = await createTestControlplane({ config, logger, browsers: 'config' });
    old.close();
    try {
      assert.deepEqual(
        [
          mode(dataDir),
          mode(config.databasePath),
          mode(`${config.databasePath}-wal`),
          mode(`${config.databasePath}-shm`),
          mode(join(dataDir, 'traces')),
          mode(join(dataDir, 'traces', 'old-task')),
        ],
        ['700', '600', '600', '600', '700', '700'],
      );
      const logged = lines.map((line) => JSON.parse(line) as { msg: string; changes?: unknown[] });
      const entry = logged.find((line) => /tightened data dir permissions/.test(line.msg));
      assert.ok(entry, `no start-up log line about the change:\n${lines.join('')}`);
      assert.equal(entry.changes?.length, 6);
    } finally {
      await platform.close();
    }
  });
});
