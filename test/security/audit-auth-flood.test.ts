// Issue 12, found item 5: unauthenticated requests grew the audit log one row each (5,000 junk
// requests added 5,000 rows). Now they are counted per client address, audited as a handful of
// rows, and answered 429 past the limit, while a valid token keeps working.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { serve } from '@hono/node-server';
import { createAuditLog } from '../../controlplane/src/audit/audit-log.js';
import { createApp } from '../../controlplane/src/http/app.js';
import { createReplayModel } from '../../controlplane/src/model/replay-model.js';
import { createAuditRepository } from '../../controlplane/src/store/audit-repository.js';
import { openDatabase } from '../../controlplane/src/store/database.js';
import { createTaskService } from '../../controlplane/src/tasks/task-service.js';
import { createAuthFixture } from '../controlplane/auth/auth-fixture.js';
import { silentLogger } from '../support/silent-logger.js';
import { createTestTaskDeps } from '../support/test-task-deps.js';

describe('security: failed authentication is counted and rate-limited, not audited row by row', () => {
  const dir = mkdtempSync(join(tmpdir(), 'clawdie-auth-flood-'));
  const database = openDatabase(join(dir, 'clawdie.db'));
  const audit = createAuditLog(createAuditRepository(database.db), { now: () => Date.now() });
  const { deps, repository, close } = createTestTaskDeps({
    model: createReplayModel(["Action: finished(content='ok')"]),
    loop: { maxSteps: 3 },
  });
  const tasks = createTaskService(deps);
  after(async () => {
    await tasks.close();
    close();
    database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('adds a handful of rows for 5,000 junk requests, answers 429 past the limit, and still serves a valid token', async (t) => {
    const fixture = await createAuthFixture();
    const app = createApp({
      tasks,
      repository,
      logger: silentLogger,
      defaultMaxSteps: 3,
      describe: () => ({ model: { name: 'replay', replay: true }, jail: { url: '' } }),
      // The shipped defaults (config.ts): 30 failures a minute per address.
      auth: { verifier: fixture.verifier, failures: { limit: 30, windowMs: 60_000 } },
      audit,
    });
    const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
      const listening = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () =>
        resolve(listening),
      );
    });
    t.after(async () => {
      await new Promise((resolve) => server.close(resolve));
      if ('closeAllConnections' in server) server.closeAllConnections();
    });
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const rowsBefore = audit.list({ limit: 100_000 }).length;

    const statuses = new Map<number, number>();
    let retryAfter: string | null = null;
    const junk = ['', 'Bearer nope', 'Basic Zm9vOmJhcg==', 'Bearer a.b.c'];
    let sent = 0;
    const worker = async () => {
      while (sent < 5000) {
        const i = sent++;
        const auth = junk[i % junk.length] as string;
        const response = await fetch(`${base}/v1/tasks`, {
          headers: auth ? { authorization: auth } : {},
        });
        await response.arrayBuffer();
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        if (response.status === 429) retryAfter = response.headers.get('retry-after');
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));

    const added = audit.list({ limit: 100_000 }).length - rowsBefore;
    assert.ok(added <= 5, `5,000 junk requests added ${added} audit rows`);
    assert.equal(statuses.get(401), 30, JSON.stringify([...statuses]));
    assert.equal(statuses.get(429), 4970);
    assert.ok(Number(retryAfter) >= 1 && Number(retryAfter) <= 60, `Retry-After ${retryAfter}`);

    const valid = await fetch(`${base}/v1/tasks`, {
      headers: { authorization: `Bearer ${await fixture.token(['tasks:read'])}` },
    });
    assert.equal(valid.status, 200);
    await valid.arrayBuffer();
    const [first] = audit.list({ afterSeq: rowsBefore, limit: 1 });
    assert.equal(first?.type, 'auth-failed');
    assert.equal(first?.data.source, '127.0.0.1');
  });
});
