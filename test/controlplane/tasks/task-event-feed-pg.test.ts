// Two replicas on one PostgreSQL database, each with its own pool and its own LISTEN connection:
// a follower on the second gets every event the first stores, live, once and in order; a resume
// starts after its last id; events stored while its listening connection was down (a server
// restart) arrive when the channel resumes. Polling is off here, so only notifications and the
// resume can deliver.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { systemClock } from '../../../controlplane/src/clock.js';
import { openPgDatabase } from '../../../controlplane/src/platform/store/pg/pg-database.js';
import { openPgNotifyChannel } from '../../../controlplane/src/platform/store/pg/pg-notify-channel.js';
import { createPgTaskEventRepository } from '../../../controlplane/src/platform/store/pg/pg-task-event-repository.js';
import { createPgTaskRepository } from '../../../controlplane/src/platform/store/pg/pg-task-repository.js';
import { createTaskEventFeed } from '../../../controlplane/src/tasks/task-event-feed.js';
import { announceInterrupted } from '../../../controlplane/src/tasks/task-event-follower.js';
import type {
  NumberedEvent,
  TaskStreamEvent,
} from '../../../controlplane/src/tasks/task-events.js';
import { requires } from '../../support/capabilities.js';
import { type PostgresCluster, startPostgres } from '../../support/postgres/start-postgres.js';
import { silentLogger } from '../../support/silent-logger.js';

const T = 1_795_000_000_000;
let cluster: PostgresCluster | null = null;

/** One replica: its pool, its notify channel (reconnecting after `retryMs`), its feed. */
async function replica(url: string, retryMs = 50) {
  const { db, close } = await openPgDatabase(url);
  const notify = await openPgNotifyChannel({
    url,
    pool: db.$client,
    logger: silentLogger,
    retryMs,
  });
  const feed = createTaskEventFeed({
    store: createPgTaskEventRepository(db),
    notify,
    clock: systemClock,
    logger: silentLogger,
    pollMs: 3_600_000,
  });
  return {
    feed,
    notify,
    tasks: createPgTaskRepository(db),
    async close() {
      await notify.close();
      await close();
    },
  };
}

function collector() {
  const got: NumberedEvent[] = [];
  return {
    got,
    listener: (entry: NumberedEvent) => got.push(entry),
    async until(count: number, ms = 10_000) {
      const deadline = Date.now() + ms;
      while (got.length < count) {
        assert.ok(Date.now() < deadline, `expected ${count} events, got ${got.length}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return got.map((entry) => entry.id);
    },
  };
}

const step = (n: number): TaskStreamEvent => ({
  type: 'step',
  data: {
    trace_id: 't',
    step: n,
    max_steps: 10,
    outcome: 'ok',
    actions: [],
    thought: null,
    message: null,
    timings_ms: { capture: 0, model: 0, execute: 0 },
  },
});
const result: TaskStreamEvent = {
  type: 'result',
  data: {
    status: 'finished',
    summary: 'done',
    result_data: null,
    trace_id: 't',
    step_count: 3,
    final_screenshot_path: null,
  },
};

describe('task event feed across two replicas on PostgreSQL', {
  skip: requires('postgres').skip,
}, () => {
  before(async () => {
    cluster = await startPostgres();
  });
  after(async () => {
    await cluster?.stop();
  });

  async function twoReplicas(retryMs?: number) {
    const url = await (cluster as PostgresCluster).createDatabase();
    const one = await replica(url);
    const two = await replica(url, retryMs);
    await one.tasks.createTask({
      id: 't',
      instruction: 'follow me',
      startUrl: null,
      maxSteps: 10,
      modelName: 'm',
      coordinateMode: 'relative-1000',
      createdAt: T,
    });
    return { one, two };
  }

  it('delivers every event stored by the other replica live, once, in order; resumes after an id', async (t) => {
    const { one, two } = await twoReplicas();
    t.after(async () => {
      await one.close();
      await two.close();
    });
    const live = collector();
    const stop = two.feed.follow('t', 0, live.listener);
    t.after(stop);
    for (const seq of [1, 2, 3]) {
      await one.feed.append('t', seq, step(seq), T + seq);
      // Each arrives before the next is stored: by its notification (polling is off).
      assert.deepEqual(await live.until(seq), [1, 2, 3].slice(0, seq));
    }
    await one.feed.append('t', 4, result, T + 4);
    assert.deepEqual(await live.until(4), [1, 2, 3, 4]);
    const resumed = collector();
    t.after(two.feed.follow('t', 2, resumed.listener));
    assert.deepEqual(await resumed.until(2), [3, 4]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual([live.got.length, resumed.got.length, resumed.got[1]?.event], [4, 2, result]);
  });

  it("delivers the row's INTERRUPTED result as soon as a sweep announces it (polling off)", async (t) => {
    const { one, two } = await twoReplicas();
    t.after(async () => {
      await one.close();
      await two.close();
    });
    const ended = { ...result.data, status: 'error', error: { code: 'INTERRUPTED', message: '' } };
    let swept = false;
    const live = collector();
    const interrupted = async () => (swept ? (ended as typeof result.data) : null);
    t.after(two.feed.follow('t', 0, live.listener, { interrupted }));
    await one.feed.append('t', 1, step(1), T + 1);
    assert.deepEqual(await live.until(1), [1]);
    // The replica running 't' died; another one's sweep ended its row and announces it.
    swept = true;
    const started = performance.now();
    await announceInterrupted(one.notify, ['t']);
    assert.deepEqual(await live.until(2, 2_000), [1, 2]);
    assert.deepEqual(live.got[1]?.event, { type: 'result', data: ended });
    t.diagnostic(`result delivered ${(performance.now() - started).toFixed(0)} ms after the sweep`);
  });

  it('reads the events stored while its listening connection was down once it resumes', async (t) => {
    // The follower's channel reconnects 1.5 s after the restart: the first replica stores two
    // events before that, and their notifications reach nobody.
    const { one, two } = await twoReplicas(1_500);
    t.after(async () => {
      await one.close();
      await two.close();
    });
    const live = collector();
    t.after(two.feed.follow('t', 0, live.listener));
    await one.feed.append('t', 1, step(1), T + 1);
    assert.deepEqual(await live.until(1), [1]);
    await (cluster as PostgresCluster).restart(100);
    for (const seq of [2, 3]) await appendRetrying(() => one.feed.append('t', seq, step(seq), T));
    assert.equal(live.got.length, 1, 'delivered before the channel resumed');
    assert.deepEqual(await live.until(3), [1, 2, 3]);
    await one.feed.append('t', 4, result, T + 4);
    assert.deepEqual(await live.until(4), [1, 2, 3, 4]);
  });
});

/** The pool may hand out a connection the restart cut once: a failed insert is not stored. */
async function appendRetrying(append: () => Promise<void>): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await append();
    } catch (error) {
      if (attempt >= 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
