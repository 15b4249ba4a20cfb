// npm run bench:task-events — what storing a task's stream event adds to the run: one
// `feed.append` (insert into task_events, then a notification) per status, step, stuck or result
// event, awaited by the run. SQLite: a file database as the controlplane opens it (WAL,
// synchronous=NORMAL), the in-process channel. PostgreSQL (when `postgres` is installed): a
// throwaway cluster on a unix socket, LISTEN/NOTIFY channel. BENCH_APPENDS per store (default 2000).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '../controlplane/src/clock.js';
import {
  createLocalNotifyChannel,
  type NotifyChannel,
} from '../controlplane/src/platform/notify/notify-channel.js';
import { openDatabase } from '../controlplane/src/platform/store/database.js';
import { openPgDatabase } from '../controlplane/src/platform/store/pg/pg-database.js';
import { openPgNotifyChannel } from '../controlplane/src/platform/store/pg/pg-notify-channel.js';
import { createPgTaskEventRepository } from '../controlplane/src/platform/store/pg/pg-task-event-repository.js';
import { createPgTaskRepository } from '../controlplane/src/platform/store/pg/pg-task-repository.js';
import {
  createTaskEventRepository,
  type TaskEventStore,
} from '../controlplane/src/platform/store/task-event-repository.js';
import { createTaskRepository } from '../controlplane/src/platform/store/task-repository.js';
import type { TaskRepository } from '../controlplane/src/platform/store/task-repository-port.js';
import { createTaskEventFeed } from '../controlplane/src/tasks/task-event-feed.js';
import type { TaskStreamEvent } from '../controlplane/src/tasks/task-events.js';
import { requires } from '../test/support/capabilities.js';
import { startPostgres } from '../test/support/postgres/start-postgres.js';
import { silentLogger } from '../test/support/silent-logger.js';
import { summarise } from './bench-stats.js';

const appends = Number(process.env.BENCH_APPENDS ?? 2_000);
const perTask = 20;

const step = (n: number): TaskStreamEvent => ({
  type: 'step',
  data: {
    trace_id: 'bench',
    step: n,
    step_count: n,
    max_steps: 30,
    outcome: 'ok',
    actions: ['click (640, 400)'],
    thought: 'I click the search box to type the query.',
    message: null,
    timings_ms: { capture: 41.2, model: 812.5, execute: 20.1 },
  },
});

/** Per-append latency in µs over `appends` events, `perTask` per task. */
async function measure(store: TaskEventStore, notify: NotifyChannel, tasks: TaskRepository) {
  const feed = createTaskEventFeed({ store, notify, clock: systemClock, logger: silentLogger });
  const sample: number[] = [];
  for (let i = 0; i < appends + 200; i++) {
    const taskId = `task-${Math.floor(i / perTask)}`;
    const seq = (i % perTask) + 1;
    if (seq === 1)
      await tasks.createTask({
        id: taskId,
        instruction: 'bench',
        startUrl: null,
        maxSteps: 30,
        modelName: 'bench',
        coordinateMode: 'relative-1000',
        createdAt: Date.now(),
      });
    const started = performance.now();
    await feed.append(taskId, seq, step(seq), Date.now());
    if (i >= 200) sample.push((performance.now() - started) * 1000);
  }
  return summarise(sample);
}

const dir = mkdtempSync(join(tmpdir(), 'clawdie-bench-events-'));
try {
  const sqlite = openDatabase(join(dir, 'events.db'));
  const local = createLocalNotifyChannel();
  const onSqlite = await measure(
    createTaskEventRepository(sqlite.db),
    local,
    createTaskRepository(sqlite.db),
  );
  console.log(JSON.stringify({ store: 'SQLite', unit: 'µs', ...onSqlite }));
  sqlite.close();
  const skip = requires('postgres').skip;
  if (skip) console.log(`PostgreSQL skipped: ${skip}`);
  else {
    const cluster = await startPostgres();
    try {
      const url = await cluster.createDatabase();
      const { db, close } = await openPgDatabase(url);
      const notify = await openPgNotifyChannel({ url, pool: db.$client, logger: silentLogger });
      const onPg = await measure(
        createPgTaskEventRepository(db),
        notify,
        createPgTaskRepository(db),
      );
      console.log(JSON.stringify({ store: 'PostgreSQL', unit: 'µs', ...onPg }));
      await notify.close();
      await close();
    } finally {
      await cluster.stop();
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
