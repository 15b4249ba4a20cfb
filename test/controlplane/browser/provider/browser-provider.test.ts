import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type {
  BrowserLease,
  BrowserProvider,
} from '../../../../controlplane/src/browser/provider/browser-provider.js';
import { createSingleBrowserProvider } from '../../../../controlplane/src/browser/provider/browser-provider.js';
import { createHostdBrowserProvider } from '../../../../controlplane/src/browser/provider/hostd-browser-provider.js';
import {
  screencastOf,
  trackLeases,
} from '../../../../controlplane/src/browser/provider/task-browsers.js';
import { createAuditLog } from '../../../../controlplane/src/governance/audit/audit-log.js';
import { createAuditRepository } from '../../../../controlplane/src/platform/store/audit-repository.js';
import { openDatabase } from '../../../../controlplane/src/platform/store/database.js';
import { createTaskService } from '../../../../controlplane/src/tasks/task-service.js';
import type { EgressRefusal } from '../../../../hostd/src/api/schema.js';
import { createFakeOperator } from '../../../support/fake-operator.js';
import { createPerTaskScriptModel } from '../../../support/per-task-script-model.js';
import { silentLogger } from '../../../support/silent-logger.js';
import { submit } from '../../../support/submit-task.js';
import { createTestTaskDeps } from '../../../support/test-task-deps.js';

/** A provider that hands out fake browsers, counts leases and can be told to fail. */
function countingProvider(concurrency: number, fail = false) {
  const log = { acquired: 0, released: 0, maxHeld: 0, held: 0 };
  const provider: BrowserProvider = {
    concurrency,
    async acquire(): Promise<BrowserLease> {
      if (fail) throw new Error('hostd is down');
      log.acquired += 1;
      log.held += 1;
      log.maxHeld = Math.max(log.maxHeld, log.held);
      let released = false;
      return {
        id: `clone-${log.acquired}`,
        service: null,
        operator: createFakeOperator().operator,
        async release() {
          if (released) return;
          released = true;
          log.released += 1;
          log.held -= 1;
        },
      };
    },
  };
  return { provider, log };
}

const script = [
  "Action: click(start_box='<|box_start|>(644,406)<|box_end|>')",
  "Action: finished(content='ok')",
];

describe('task service over a browser provider', () => {
  it('runs up to `concurrency` tasks at once, each on its own lease, and releases every lease', async () => {
    const { deps, close } = createTestTaskDeps({ model: createPerTaskScriptModel(script) });
    const { provider, log } = countingProvider(2);
    const tasks = createTaskService(deps, undefined, provider);
    const results = await Promise.all(
      Array.from(
        { length: 5 },
        async (_, n) => (await submit(tasks, { instruction: `task ${n}` })).done,
      ),
    );
    assert.deepEqual(
      results.map((r) => r.status),
      Array(5).fill('finished'),
    );
    assert.equal(log.acquired, 5);
    assert.equal(log.released, 5);
    assert.equal(log.maxHeld, 2);
    close();
  });

  it('releases the lease of an aborted task', async () => {
    const { deps, close } = createTestTaskDeps({
      model: createPerTaskScriptModel(['Action: wait()']),
      loop: { maxSteps: 500 },
    });
    const { provider, log } = countingProvider(1);
    const tasks = createTaskService(deps, undefined, provider);
    const { taskId, done } = await submit(tasks, { instruction: 'forever' });
    setTimeout(() => tasks.abort(taskId), 30);
    assert.equal((await done).status, 'aborted');
    assert.equal(log.released, 1);
    close();
  });

  it('ends OPERATOR_UNAVAILABLE with a recorded task when no browser can be had', async () => {
    const { deps, repository, close } = createTestTaskDeps({
      model: createPerTaskScriptModel(script),
    });
    const tasks = createTaskService(deps, undefined, countingProvider(1, true).provider);
    const result = await (await submit(tasks, { instruction: 'x' })).done;
    assert.equal(result.status, 'error');
    assert.equal(result.error?.code, 'OPERATOR_UNAVAILABLE');
    assert.match(result.error?.message ?? '', /hostd is down/);
    assert.equal((await repository.getTask(result.trace_id))?.status, 'error');
    close();
  });
});

/** hostd's refusal stream: `refusals` once (to the first lease), then the end once destroyed. */
function fakeRefusalStream(refusals: EgressRefusal[] = []) {
  let destroyed = () => {};
  const gone = new Promise<void>((resolve) => {
    destroyed = resolve;
  });
  return {
    destroyed: () => destroyed(),
    followEgressRefusals: async (
      _lease: unknown,
      options: { onRefusal: (refusal: EgressRefusal) => void },
    ) => {
      for (const refusal of refusals.splice(0)) options.onRefusal(refusal);
      await gone;
      return { ended: true, lastSeq: 0 };
    },
    egressRefusals: async () => [],
  };
}

describe('hostd browser provider', () => {
  const clone = {
    name: 'browsertask007',
    index: 7,
    generation: 3,
    leaseId: 'lease-0123456789abcdef',
    taskId: 't',
    state: 'running' as const,
    service: { url: 'http://10.78.0.30:9223', token: 'clone-token' },
    isolation: { level: 'full' as const, reasons: [] },
    allowedDomains: ['example.org'],
    limits: { memoryMb: 2048, pids: 512, cpuPercent: 100 },
    display: null,
    egressProxyUrl: 'http://10.78.0.29:3128',
    fromPool: false,
    createdAt: new Date(0).toISOString(),
    readyMs: 700,
  };

  it('creates a clone with the task domains and destroys it exactly once on release', async () => {
    const calls: string[] = [];
    const stream = fakeRefusalStream();
    const provider = createHostdBrowserProvider({
      logger: silentLogger,
      client: {
        createClone: async (request) => {
          calls.push(`create ${request.taskId} ${request.allowedDomains?.join(',')}`);
          return clone;
        },
        destroyClone: async (lease) => {
          calls.push(`destroy ${lease.name} ${lease.leaseId}`);
          stream.destroyed();
          return { name: lease.name, destroyed: true, leftovers: [] } as never;
        },
        ...stream,
      },
    });
    const lease = await provider.acquire({ taskId: 't1', allowedDomains: ['example.org'] });
    assert.equal(lease.id, 'browsertask007');
    await Promise.all([lease.release(), lease.release()]);
    assert.deepEqual(calls, [
      'create t1 example.org',
      'destroy browsertask007 lease-0123456789abcdef',
    ]);
  });

  it('turns a hostd failure into OPERATOR_UNAVAILABLE', async () => {
    const provider = createHostdBrowserProvider({
      logger: silentLogger,
      client: {
        createClone: async () => {
          throw new Error('HTTP 503 CLONE_START_FAILED');
        },
        destroyClone: async () => ({}) as never,
        ...fakeRefusalStream(),
      },
    });
    await assert.rejects(provider.acquire({ taskId: 't', allowedDomains: [] }), {
      code: 'OPERATOR_UNAVAILABLE',
    });
  });

  it('audits the clone, what its proxy refused, and its verified destruction (or failure)', async () => {
    const database = openDatabase(':memory:');
    const audit = createAuditLog(createAuditRepository(database.db), { now: () => 0 });
    let failDestroy = false;
    const stream = fakeRefusalStream([
      {
        seq: 1,
        name: clone.name,
        leaseId: clone.leaseId,
        generation: 3,
        taskId: 't2',
        host: 'evil.test',
        port: 443,
        method: 'CONNECT',
        reason: 'not-allowed' as const,
        at: new Date(0).toISOString(),
      },
      {
        seq: 2,
        name: clone.name,
        leaseId: clone.leaseId,
        generation: 3,
        taskId: 't2',
        host: 'rebound.example',
        port: 8700,
        method: 'POST',
        reason: 'blocked-address' as const,
        address: '127.0.0.1:8700',
        at: new Date(0).toISOString(),
      },
    ]);
    const provider = createHostdBrowserProvider({
      logger: silentLogger,
      audit,
      client: {
        createClone: async () => ({
          ...clone,
          isolation: { level: 'reduced', reasons: ['no nft'] },
          egressExceptions: ['127.0.0.1:41234'],
        }),
        destroyClone: async (lease) => {
          if (failDestroy) throw new Error('hostd is gone');
          stream.destroyed();
          return { name: lease.name, destroyed: true as const, leftovers: ['netns bt007'] };
        },
        ...stream,
      },
    });
    await (await provider.acquire({ taskId: 't2', allowedDomains: ['example.org'] })).release();
    failDestroy = true;
    await (await provider.acquire({ taskId: 't3', allowedDomains: [] })).release();
    const rows = async (taskId: string) =>
      (await audit.list({ taskId, limit: 10 })).map((row) => [row.type, row.data] as const);
    assert.deepEqual(await rows('t2'), [
      [
        'clone-created',
        {
          clone: 'browsertask007',
          isolation: { level: 'reduced', reasons: ['no nft'] },
          allowedDomains: ['example.org'],
          fromPool: false,
          readyMs: 700,
          egressExceptions: ['127.0.0.1:41234'],
        },
      ],
      [
        'egress-refused',
        {
          clone: 'browsertask007',
          generation: 3,
          host: 'evil.test',
          port: 443,
          method: 'CONNECT',
          reason: 'not-allowed',
          at: new Date(0).toISOString(),
        },
      ],
      [
        'egress-refused',
        {
          clone: 'browsertask007',
          generation: 3,
          host: 'rebound.example',
          port: 8700,
          method: 'POST',
          reason: 'blocked-address',
          address: '127.0.0.1:8700',
          at: new Date(0).toISOString(),
        },
      ],
      ['clone-destroyed', { clone: 'browsertask007', leftovers: ['netns bt007'] }],
    ]);
    assert.deepEqual((await rows('t3')).at(-1), [
      'clone-destroyed',
      { clone: 'browsertask007', failed: 'hostd is gone' },
    ]);
    assert.equal((await audit.verify()).ok, true);
    database.close();
  });
});

describe('task browsers (leases by task)', () => {
  it('finds a task’s lease while it holds it, and forgets it on release', async () => {
    const fake = createFakeOperator();
    const { provider, browsers } = trackLeases(
      createSingleBrowserProvider(fake.operator, {
        url: 'http://127.0.0.1:1',
        token: 't'.repeat(20),
      }),
    );
    assert.equal(browsers.get('a'), undefined);
    assert.equal(screencastOf(browsers)('a'), null);
    const lease = await provider.acquire({ taskId: 'a', allowedDomains: [] });
    assert.equal(browsers.get('a')?.id, 'local');
    assert.deepEqual(
      browsers.list().map((entry) => entry.taskId),
      ['a'],
    );
    assert.ok((await browsers.get('a')?.operator.screenshot())?.jpeg.length);
    assert.ok(screencastOf(browsers)('a'));
    await lease.release();
    assert.equal(browsers.get('a'), undefined);
  });
});
