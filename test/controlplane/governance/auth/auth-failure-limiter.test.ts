import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createAuditLog } from '../../../../controlplane/src/governance/audit/audit-log.js';
import { createAuthFailureLimiter } from '../../../../controlplane/src/governance/auth/auth-failure-limiter.js';
import { createAuditRepository } from '../../../../controlplane/src/platform/store/audit-repository.js';
import { openDatabase } from '../../../../controlplane/src/platform/store/database.js';

function setup(limit = 3) {
  const database = openDatabase(':memory:');
  const clock = { ms: 1_000_000 };
  const audit = createAuditLog(createAuditRepository(database.db), { now: () => clock.ms });
  const limiter = createAuthFailureLimiter({ audit, limit, windowMs: 60_000, now: () => clock.ms });
  const fail = async (source: string, code = 'TOKEN_MISSING') => {
    const retry = limiter.retryAfterSeconds(source);
    await limiter.record(
      source,
      { actor: 'anonymous', method: 'GET', path: '/v1/tasks', code, scope: 'tasks:read' },
      retry !== null,
    );
    return retry;
  };
  const rows = () => audit.list({ limit: 100 });
  return { database, clock, limiter, fail, rows };
}

describe('auth failure limiter', () => {
  it('audits the first failure of each code in a window at once and the rest as one summary when it ends', async () => {
    const { database, clock, limiter, fail, rows } = setup(3);
    assert.equal(await fail('10.0.0.1'), null);
    assert.equal(await fail('10.0.0.1', 'TOKEN_INVALID'), null);
    assert.equal(await fail('10.0.0.1'), null);
    assert.equal(await fail('10.0.0.1'), 60, 'the fourth failure of the window is told to wait');
    clock.ms += 30_000;
    assert.equal(await fail('10.0.0.1', 'TOKEN_EXPIRED'), 30);
    assert.equal((await rows()).length, 2, 'a new code past the limit is only counted');
    assert.deepEqual((await rows())[0]?.data, {
      source: '10.0.0.1',
      method: 'GET',
      path: '/v1/tasks',
      code: 'TOKEN_MISSING',
      scope: 'tasks:read',
    });
    assert.equal((await rows())[1]?.data.code, 'TOKEN_INVALID');
    clock.ms += 30_000;
    await limiter.sweep();
    assert.deepEqual((await rows())[2]?.data, {
      source: '10.0.0.1',
      summary: true,
      window_start: 1_000_000,
      window_ms: 60_000,
      count: 3,
      codes: { TOKEN_EXPIRED: 1, TOKEN_MISSING: 2 },
      throttled: 2,
    });
    assert.equal(await fail('10.0.0.1'), null, 'a new window starts fresh');
    assert.equal((await rows()).length, 4);
    await limiter.close();
    database.close();
  });

  it('audits a takeover refusal as such, with its path bounded and at most 8 codes in full', async () => {
    const { database, limiter, rows } = setup(1000);
    const path = `/takeover/${'x'.repeat(8192)}/open`;
    for (let i = 0; i < 500; i += 1) {
      await limiter.record(
        '10.0.0.2',
        {
          type: 'takeover-refused',
          actor: 'anonymous',
          method: 'GET',
          path,
          code: `CODE_${i % 20}`,
          scope: 'takeover',
          taskId: 'task-1',
        },
        false,
      );
    }
    assert.equal((await rows()).length, 8);
    const [first] = await rows();
    assert.equal(first?.type, 'takeover-refused');
    assert.equal(first?.taskId, 'task-1');
    const stored = String(first?.data.path);
    assert.ok(Buffer.byteLength(stored) <= 200, `${Buffer.byteLength(stored)} bytes`);
    assert.match(stored, /^\/takeover\/x+…\[8207 B sha256:[0-9a-f]{64}\]$/);
    await limiter.close();
    assert.equal((await rows()).length, 9, 'closing writes the summary');
    assert.equal((await rows())[8]?.data.count, 492);
    database.close();
  });

  it('keeps sources apart and bounds how many it tracks', async () => {
    const database = openDatabase(':memory:');
    const audit = createAuditLog(createAuditRepository(database.db), { now: () => 1 });
    const limiter = createAuthFailureLimiter({ audit, limit: 1, windowMs: 60_000, maxSources: 2 });
    const failure = { actor: 'anonymous', method: 'GET', path: '/', code: 'X', scope: 'admin' };
    for (const source of ['a', 'b', 'c', 'd']) await limiter.record(source, failure, false);
    assert.equal(limiter.retryAfterSeconds('a') !== null, true);
    assert.equal(
      limiter.retryAfterSeconds('z') !== null,
      true,
      'past the bound: the shared overflow window',
    );
    assert.deepEqual(
      (await audit.list({ limit: 10 })).map((row) => row.data.source),
      ['a', 'b', 'overflow'],
    );
    await limiter.close();
    database.close();
  });
});
