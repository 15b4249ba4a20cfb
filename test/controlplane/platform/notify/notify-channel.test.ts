// The notify channel's contract on the in-process adapter and on PostgreSQL LISTEN/NOTIFY, and
// the PostgreSQL adapter surviving a server restart (it listens again and says so).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pg from 'pg';

import {
  createLocalNotifyChannel,
  MAX_NOTIFY_PAYLOAD,
  type NotifyChannel,
} from '../../../../controlplane/src/platform/notify/notify-channel.js';
import { openPgNotifyChannel } from '../../../../controlplane/src/platform/store/pg/pg-notify-channel.js';
import { requires } from '../../../support/capabilities.js';
import { fileCluster } from '../../../support/postgres/start-postgres.js';
import { silentLogger } from '../../../support/silent-logger.js';

const logger = silentLogger;

/** Two channels on one bus (two processes' view of it), and how to end them. */
interface Bus {
  a: NotifyChannel;
  b: NotifyChannel;
  end(): Promise<void>;
}

function received(channel: NotifyChannel, name: string) {
  const got: string[] = [];
  const waiters: Array<() => void> = [];
  const ready = channel.listen(name, (payload) => {
    got.push(payload);
    for (const wake of waiters.splice(0)) wake();
  });
  return {
    got,
    ready,
    async until(count: number, ms = 5_000) {
      const deadline = Date.now() + ms;
      while (got.length < count) {
        assert.ok(Date.now() < deadline, `expected ${count} notifications, got ${got.length}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
      return got;
    },
  };
}

function contract(name: string, skip: string | false, open: () => Promise<Bus>) {
  describe(`notify channel: ${name}`, { skip }, () => {
    it('delivers to every listener of the channel, in order, and to nobody else', async () => {
      const bus = await open();
      try {
        const onA = received(bus.a, 'task_events');
        const onB = received(bus.b, 'task_events');
        const other = received(bus.b, 'commands');
        await Promise.all([onA.ready, onB.ready, other.ready]);
        for (const n of [1, 2, 3]) await bus.a.notify('task_events', `t-${n}`);
        assert.deepEqual(await onA.until(3), ['t-1', 't-2', 't-3']);
        assert.deepEqual(await onB.until(3), ['t-1', 't-2', 't-3']);
        await new Promise((resolve) => setTimeout(resolve, 100));
        assert.deepEqual(other.got, []);
      } finally {
        await bus.end();
      }
    });

    it('stops delivering once unlistened', async () => {
      const bus = await open();
      try {
        const got: string[] = [];
        const stop = await bus.b.listen('task_events', (payload) => got.push(payload));
        const kept = received(bus.b, 'task_events');
        await kept.ready;
        await bus.a.notify('task_events', 'one');
        await kept.until(1);
        await stop();
        await bus.a.notify('task_events', 'two');
        await kept.until(2);
        assert.deepEqual(got, ['one']);
      } finally {
        await bus.end();
      }
    });

    it('refuses a payload over the limit and a notify after close', async () => {
      const bus = await open();
      try {
        await assert.rejects(bus.a.notify('task_events', 'x'.repeat(MAX_NOTIFY_PAYLOAD + 1)), {
          code: 'NOTIFY_PAYLOAD_TOO_LARGE',
        });
      } finally {
        await bus.end();
      }
      await assert.rejects(bus.a.notify('task_events', 'late'), /closed/);
    });
  });
}

contract('in-process', false, async () => {
  const channel = createLocalNotifyChannel();
  return { a: channel, b: channel, end: () => channel.close() };
});

const skipPg = requires('postgres').skip;
const { cluster, database } = fileCluster();

async function pgBus(url: string, retryMs = 50) {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pool.on('error', () => {});
  const a = await openPgNotifyChannel({ url, pool, logger, retryMs, maxRetryMs: 200 });
  const b = await openPgNotifyChannel({ url, pool, logger, retryMs, maxRetryMs: 200 });
  return {
    a,
    b,
    async end() {
      await a.close();
      await b.close();
      await pool.end();
    },
  };
}

contract('PostgreSQL', skipPg, async () => {
  return pgBus(await database());
});

describe('notify channel: PostgreSQL restart', { skip: skipPg }, () => {
  it('listens again after the server restarts and tells readers to re-read', async () => {
    const running = await cluster();
    const bus = await pgBus(await running.createDatabase());
    try {
      const onB = received(bus.b, 'task_events');
      await onB.ready;
      let resumed = 0;
      bus.b.onResumed(() => resumed++);
      await bus.a.notify('task_events', 'before');
      await onB.until(1);
      await running.restart(200);
      // Sent once both connections are back: the listener must be listening again.
      const deadline = Date.now() + 10_000;
      while (resumed === 0) {
        assert.ok(Date.now() < deadline, 'the listening connection never came back');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await bus.a.notify('task_events', 'after');
      assert.deepEqual(await onB.until(2), ['before', 'after']);
    } finally {
      await bus.end();
    }
  });
});
