import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { createReplayModel } from '../../../../controlplane/src/agent/model/replay-model.js';
import { createAuditLog } from '../../../../controlplane/src/governance/audit/audit-log.js';
import { openAuditTrail } from '../../../../controlplane/src/governance/audit/open-audit-trail.js';
import { auditInterruptedTasks } from '../../../../controlplane/src/governance/audit/task-audit.js';
import { createAuditRepository } from '../../../../controlplane/src/platform/store/audit-repository.js';
import { openDatabase } from '../../../../controlplane/src/platform/store/database.js';
import { createTaskRepository } from '../../../../controlplane/src/platform/store/task-repository.js';
import { CLAWDIE_ARGV } from '../../../support/current-build.js';
import { silentLogger } from '../../../support/silent-logger.js';
import { runTestTask } from '../../../support/submit-task.js';
import { createTestTaskDeps } from '../../../support/test-task-deps.js';

const run = promisify(execFile);

describe('task audit', () => {
  it('records start, each action, a refused navigation with its kind and the end', async () => {
    const { deps, close } = createTestTaskDeps({
      model: createReplayModel([
        "Action: click(start_box='<|box_start|>(644,406)<|box_end|>')",
        "Action: navigate(url='https://evil.example/')",
        "Action: finished(content='done')",
      ]),
    });
    const database = openDatabase(':memory:');
    const audit = createAuditLog(createAuditRepository(database.db), deps.clock);
    const result = await runTestTask(
      { instruction: 'click', domains: ['shop.example'] },
      { ...deps, audit },
      {},
      { tenant: 'acme', subject: 'alice', scopes: ['tasks:run'], via: 'token' },
    );
    assert.equal(result.status, 'finished');
    const rows = await audit.list({ limit: 100 });
    assert.deepEqual(
      rows.map((row) => row.type),
      ['task-started', 'action-executed', 'step-refused', 'task-ended'],
    );
    assert.ok(
      rows.every((row) => row.actor === 'tenant:acme/alice' && row.taskId === result.trace_id),
    );
    assert.deepEqual(rows[0]?.data.domains, ['shop.example']);
    assert.equal((rows[1]?.data.action as { type?: string } | undefined)?.type, 'click');
    assert.equal(rows[2]?.data.kind, 'navigation');
    assert.match(String(rows[2]?.data.message), /evil\.example\/ is outside the task's domains/);
    assert.deepEqual(rows[3]?.data, { error: null, status: 'finished', step_count: 3 });
    assert.equal((await audit.verify()).ok, true);
    database.close();
    close();
  });
});

describe('interrupted tasks', () => {
  it('audits task-ended with the INTERRUPTED reason for each task a stopped controlplane left running', async () => {
    const database = openDatabase(':memory:');
    const repository = createTaskRepository(database.db);
    const audit = createAuditLog(createAuditRepository(database.db), { now: () => 9 });
    for (const id of ['a', 'b']) {
      await repository.createTask({
        id,
        instruction: 'x',
        startUrl: null,
        maxSteps: 3,
        modelName: 'm',
        coordinateMode: '1.5',
        createdAt: 1,
        ...(id === 'a' ? { actor: 'tenant:acme/alice' } : {}),
      });
    }
    await repository.markStarted('a', 2);
    await auditInterruptedTasks(audit, await repository.failInterrupted(3), silentLogger);
    const rows = await audit.list({ limit: 10 });
    assert.deepEqual(
      rows.map((row) => [row.type, row.taskId, row.actor]),
      [
        ['task-ended', 'a', 'tenant:acme/alice'],
        ['task-ended', 'b', 'system'],
      ],
    );
    assert.deepEqual(rows[0]?.data, {
      status: 'error',
      step_count: 0,
      error: 'INTERRUPTED',
      reason: 'the controlplane stopped while this task was running',
    });
    database.close();
  });
});

describe('clawdie audit verify', () => {
  it('exits 0 on an intact log and 1 naming the first bad row of a tampered one', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'clawdie-audit-cli-'));
    const database = openDatabase(join(dataDir, 'clawdie.db'));
    const audit = await openAuditTrail(createAuditRepository(database.db), {
      keyFile: join(dataDir, 'keys', 'audit.key'),
      clock: { now: () => 5 },
      mode: 'append',
    });
    for (let i = 0; i < 4; i++)
      await audit.append({ type: 'action-executed', actor: 'system', data: { i } });
    audit.close();
    const cli = () =>
      run(process.execPath, [...CLAWDIE_ARGV, 'audit', 'verify'], {
        env: { ...process.env, CLAWDIE_DATA_DIR: dataDir },
      });
    const intact = await cli();
    assert.match(intact.stderr, /audit log intact: 5 rows, head seq 5/);
    database.db.$client.exec(
      "DROP TRIGGER audit_events_no_update; UPDATE audit_events SET actor = 'mallory' WHERE seq = 3;",
    );
    database.close();
    await assert.rejects(cli(), (error: { code: number; stderr: string }) => {
      assert.equal(error.code, 1);
      assert.match(error.stderr, /audit log TAMPERED: first bad row 3 \(edited\)/);
      return true;
    });
  });
});
