import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { NewTask } from '../../../../../controlplane/src/platform/store/task-repository-port.js';
import { freshConnection, type StoreBackend } from './store-backends.js';

const T = 1_795_000_000_000;
const task = (id: string, over: Partial<NewTask> = {}): NewTask => ({
  id,
  instruction: `Find the price of ${id}`,
  startUrl: 'https://shop.example/',
  maxSteps: 10,
  modelName: 'ui-tars-1.5',
  coordinateMode: 'relative-1000',
  createdAt: T,
  ...over,
});

/** Behaviour every TaskRepository adapter must have. */
export function taskRepositoryContract(backend: StoreBackend): void {
  describe(`TaskRepository contract: ${backend.name}`, { skip: backend.skip }, () => {
    it('creates a queued task, starts it (a paused one stays paused) and ends it with JSON intact', async (t) => {
      const { tasks } = await freshConnection(backend, t);
      await tasks.createTask(task('a', { tenant: 'acme', actor: 'tenant:acme/bot' }));
      assert.equal((await tasks.getTask('a'))?.status, 'queued');
      await tasks.markStarted('a', T + 1);
      assert.deepEqual(
        [(await tasks.getTask('a'))?.status, (await tasks.getTask('a'))?.startedAt],
        ['running', T + 1],
      );
      await tasks.createTask(task('p'));
      await tasks.setLiveStatus('p', 'paused');
      await tasks.markStarted('p', T + 2);
      assert.equal((await tasks.getTask('p'))?.status, 'paused');
      const resultData = { price: 12.5, items: ['x', 'ü'], nested: { ok: true } };
      await tasks.endTask('a', {
        status: 'finished',
        summary: 'done',
        resultData,
        errorCode: null,
        errorMessage: null,
        stepCount: 0,
        finalScreenshotPath: null,
        endedAt: T + 3,
        verification: { verdict: 'verified' },
      });
      const ended = await tasks.getTask('a');
      assert.deepEqual(ended?.resultData, resultData);
      assert.deepEqual(ended?.verification, { verdict: 'verified' });
      assert.equal(ended?.tenant, 'acme');
      assert.equal(ended?.actor, 'tenant:acme/bot');
      // An ended task keeps its ending whatever live status arrives late.
      await tasks.setLiveStatus('a', 'running');
      assert.equal((await tasks.getTask('a'))?.status, 'finished');
      assert.equal(await tasks.getTask('a', 'other-tenant'), null);
      assert.equal(await tasks.getTask('nope'), null);
    });

    it('lists newest first with a total, filtered by tenant, status and search (case-insensitive, % literal)', async (t) => {
      const { tasks } = await freshConnection(backend, t);
      await tasks.createTask(
        task('t1', { createdAt: T + 1, instruction: 'Buy 100% Cotton shirt' }),
      );
      await tasks.createTask(task('t2', { createdAt: T + 2, tenant: 'acme' }));
      await tasks.createTask(task('t3', { createdAt: T + 3, instruction: 'cotton socks' }));
      const page = await tasks.listTasks({ limit: 2, offset: 0 });
      assert.deepEqual(
        page.tasks.map((row) => row.id),
        ['t3', 't2'],
      );
      assert.equal(page.total, 3);
      assert.deepEqual(
        (await tasks.listTasks({ limit: 10, offset: 0, tenant: 'acme' })).tasks.map((r) => r.id),
        ['t2'],
      );
      assert.deepEqual(
        (await tasks.listTasks({ limit: 10, offset: 0, search: 'COTTON' })).tasks.map((r) => r.id),
        ['t3', 't1'],
      );
      assert.deepEqual(
        (await tasks.listTasks({ limit: 10, offset: 0, search: '100%' })).tasks.map((r) => r.id),
        ['t1'],
      );
      assert.equal((await tasks.listTasks({ limit: 10, offset: 0, search: '0% c' })).total, 1);
      assert.equal((await tasks.listTasks({ limit: 10, offset: 0, search: '_' })).total, 0);
      assert.deepEqual(
        (await tasks.listTasks({ limit: 10, offset: 0, search: 'T2' })).tasks.map((r) => r.id),
        ['t2'],
      );
      await tasks.setLiveStatus('t1', 'running');
      assert.deepEqual(await tasks.countTasksByStatus(), { queued: 2, running: 1 });
      assert.deepEqual(
        (await tasks.listTasks({ limit: 10, offset: 0, status: 'running' })).tasks.map((r) => r.id),
        ['t1'],
      );
    });

    it('records steps with the live step count, patches them, and keeps actions and logs in order', async (t) => {
      const { tasks } = await freshConnection(backend, t);
      await tasks.createTask(task('s'));
      const first = await tasks.insertStep('s', 0, T + 1);
      const second = await tasks.insertStep('s', 1, T + 2);
      assert.notEqual(first, second);
      assert.equal((await tasks.getTask('s'))?.stepCount, 2);
      await tasks.updateStep(first, {
        outcome: 'acted',
        thought: 'click it',
        devicePixelRatio: 2,
        captureMs: 12.5,
        modelUsage: { inputTokens: 10 } as never,
        network: [{ url: 'https://shop.example/', status: 200 }],
        endedAt: T + 5,
      });
      const steps = await tasks.listSteps('s');
      assert.deepEqual(
        steps.map((step) => [step.index, step.outcome]),
        [
          [0, 'acted'],
          [1, 'pending'],
        ],
      );
      assert.deepEqual(steps[0]?.network, [{ url: 'https://shop.example/', status: 200 }]);
      assert.equal(steps[0]?.devicePixelRatio, 2);
      assert.equal((await tasks.getStep('s', 0))?.thought, 'click it');
      assert.equal(await tasks.getStep('s', 7), null);
      const many = Array.from({ length: 1200 }, (_, index) => ({
        stepId: first,
        taskId: 's',
        index,
        type: 'click',
        modelAction: { type: 'click', n: index },
        action: index % 2 ? null : { type: 'click' },
        screenX: 1.5,
        screenY: null,
        cssX: null,
        cssY: null,
        status: 'ok' as const,
        errorCode: null,
        errorMessage: null,
        durationMs: 3.25,
        navigated: index === 3,
      }));
      await tasks.insertActions(many.reverse());
      const saved = await tasks.listActions(first);
      assert.equal(saved.length, 1200);
      assert.deepEqual(saved[3]?.modelAction, { type: 'click', n: 3 });
      assert.equal(saved[3]?.navigated, true);
      assert.equal(saved[1]?.action, null);
      await tasks.appendLog({
        taskId: 's',
        stepId: first,
        at: T,
        level: 'info',
        event: 'a',
        message: 'one',
        data: { k: 1 },
      });
      await tasks.appendLog({
        taskId: 's',
        stepId: null,
        at: T,
        level: 'warn',
        event: 'b',
        message: 'two',
        data: null,
      });
      assert.deepEqual(
        (await tasks.listLogs('s')).map((log) => log.message),
        ['one', 'two'],
      );
      assert.deepEqual(
        (await tasks.listLogs('s', first)).map((log) => log.data),
        [{ k: 1 }],
      );
    });

    it('ends only the unended tasks of owners that are gone, as INTERRUPTED with their step count', async (t) => {
      const fresh = await backend.fresh();
      const live = await fresh.connect({ owner: 'live' });
      const dead = await fresh.connect({ owner: 'dead' });
      t.after(async () => {
        await live.close();
        await dead.close();
      });
      await live.tasks.createTask(task('mine'));
      await dead.tasks.createTask(task('orphan', { actor: 'tenant:default/x' }));
      await dead.tasks.insertStep('orphan', 0, T);
      await dead.tasks.createTask(task('done'));
      await dead.tasks.endTask('done', {
        status: 'finished',
        summary: null,
        resultData: null,
        errorCode: null,
        errorMessage: null,
        stepCount: 0,
        finalScreenshotPath: null,
        endedAt: T,
      });
      const ended = await live.tasks.failInterrupted(T + 9, ['live']);
      assert.deepEqual(ended, [{ id: 'orphan', actor: 'tenant:default/x', stepCount: 1 }]);
      const orphan = await live.tasks.getTask('orphan');
      assert.deepEqual(
        [orphan?.status, orphan?.errorCode, orphan?.endedAt],
        ['error', 'INTERRUPTED', T + 9],
      );
      assert.equal((await live.tasks.getTask('mine'))?.status, 'queued');
      assert.equal((await live.tasks.getTask('done'))?.status, 'finished');
    });

    it('leaves an unowned queued task to the queue until exactly one owner claims it', async (t) => {
      const fresh = await backend.fresh();
      const [a, b] = [await fresh.connect({ owner: 'a' }), await fresh.connect({ owner: 'b' })];
      t.after(async () => {
        await a.close();
        await b.close();
      });
      await a.tasks.createTask(task('waiting', { unowned: true }));
      assert.equal((await a.tasks.getTask('waiting'))?.ownerInstance, null);
      // Its submitter is gone: the task still waits for another replica.
      assert.deepEqual(await b.tasks.failInterrupted(T + 1, ['b']), []);
      for (let i = 0; i < 20; i++) await a.tasks.createTask(task(`race-${i}`, { unowned: true }));
      const ids = ['waiting', ...Array.from({ length: 20 }, (_, i) => `race-${i}`)];
      const claims = await Promise.all(
        ids.flatMap((id) => [a.tasks.claimTask(id), b.tasks.claimTask(id)]),
      );
      for (let i = 0; i < ids.length; i++)
        assert.equal(Number(claims[2 * i]) + Number(claims[2 * i + 1]), 1, ids[i]);
      const owner = (await a.tasks.getTask('waiting'))?.ownerInstance;
      assert.equal(owner, claims[0] ? 'a' : 'b');
      assert.equal(await a.tasks.claimTask('waiting'), false, 'an owned task is not claimed again');
      // Owned now: it ends with its owner like any other.
      const gone = owner === 'a' ? 'b' : 'a';
      const ended = await b.tasks.failInterrupted(T + 2, [gone]);
      assert.ok(ended.some((row) => row.id === 'waiting'));
      await a.tasks.createTask(task('aborted', { unowned: true }));
      await a.tasks.endTask('aborted', {
        status: 'aborted',
        summary: null,
        resultData: null,
        errorCode: null,
        errorMessage: null,
        stepCount: 0,
        finalScreenshotPath: null,
        endedAt: T,
      });
      assert.equal(await b.tasks.claimTask('aborted'), false, 'an ended task is never claimed');
    });

    it('ends unclaimed queued tasks the queue gave up on once, leaving claimed and fresh ones', async (t) => {
      const { tasks, close } = await (await backend.fresh()).connect({ owner: 'a' });
      t.after(close);
      await tasks.createTask(task('old', { unowned: true }));
      await tasks.createTask(task('claimed', { unowned: true }));
      await tasks.createTask(task('fresh', { unowned: true, createdAt: T + 10 }));
      await tasks.createTask(task('owned'));
      assert.equal(await tasks.claimTask('claimed'), true);
      assert.deepEqual(await tasks.unclaimedQueued(T + 5), ['old']);
      const end = { at: T + 20, code: 'DISPATCH_FAILED', message: 'gave up' };
      const ended = await tasks.failUnclaimed(['old', 'claimed', 'owned'], end);
      assert.deepEqual(
        ended.map((row) => row.id),
        ['old'],
      );
      assert.deepEqual(await tasks.failUnclaimed(['old'], end), [], 'ended once');
      const row = await tasks.getTask('old');
      assert.equal(row?.status, 'error');
      assert.equal(row?.errorCode, 'DISPATCH_FAILED');
      assert.equal(row?.endedAt, T + 20);
    });
  });
}
