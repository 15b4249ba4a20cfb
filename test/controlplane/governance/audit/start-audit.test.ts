import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { loadConfig } from '../../../../controlplane/src/config.js';
import { openDatabase } from '../../../../controlplane/src/platform/store/database.js';
import { createTaskRepository } from '../../../../controlplane/src/platform/store/task-repository.js';
import { createTestControlplane } from '../../../support/controlplane.js';
import { CLAWDIE_ARGV } from '../../../support/current-build.js';

const run = promisify(execFile);

describe('controlplane start and the audit', () => {
  it('keys the audit on first start and audits tasks a crash left running as ended INTERRUPTED', async (t) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'clawdie-platform-audit-'));
    t.after(() => rmSync(dataDir, { recursive: true, force: true }));
    // A previous process crashed while this task ran.
    const before = openDatabase(join(dataDir, 'clawdie.db'));
    const repository = createTaskRepository(before.db);
    await repository.createTask({
      id: 'crashed',
      instruction: 'x',
      startUrl: null,
      maxSteps: 3,
      modelName: 'm',
      coordinateMode: '1.5',
      createdAt: 1,
      actor: 'tenant:acme/alice',
    });
    await repository.markStarted('crashed', 2);
    before.close();

    // A configured jail-service is not contacted at start, so no browser is needed here.
    const env = {
      CLAWDIE_DATA_DIR: dataDir,
      CLAWDIE_HOSTD: 'off',
      CLAWDIE_JAIL_URL: 'http://127.0.0.1:9',
      CLAWDIE_JAIL_TOKEN: 'x'.repeat(16),
    };
    const platform = await createTestControlplane({ config: loadConfig(env), browsers: 'config' });
    const rows = await platform.audit.list({ limit: 10 });
    await platform.close();
    assert.deepEqual(
      rows.map((row) => [row.type, row.taskId, row.actor]),
      [
        ['audit-keyed', null, 'system'],
        ['task-ended', 'crashed', 'tenant:acme/alice'],
      ],
    );
    assert.equal(rows[1]?.data.error, 'INTERRUPTED');
    assert.match(String(rows[1]?.data.reason), /stopped while this task was running/);
    assert.equal(statSync(join(dataDir, 'keys', 'audit.key')).mode & 0o777, 0o600);
    assert.equal(statSync(join(dataDir, 'keys')).mode & 0o777, 0o700);

    const verified = await run(process.execPath, [...CLAWDIE_ARGV, 'audit', 'verify'], {
      env: { ...process.env, CLAWDIE_DATA_DIR: dataDir },
    });
    assert.match(verified.stderr, /audit log intact: 2 rows, head seq 2/);
  });
});
