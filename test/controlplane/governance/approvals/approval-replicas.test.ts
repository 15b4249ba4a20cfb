// Approvals across controlplane replicas on one store: a request that waits on one replica is
// answered through another and resolves there with the stored answer — over one in-process
// channel on SQLite, and over PostgreSQL LISTEN/NOTIFY, where an announcement missed while the
// waiting replica's listening connection was down is recovered when it listens again.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { systemClock } from '../../../../controlplane/src/clock.js';
import {
  type ApprovalService,
  createApprovalService,
} from '../../../../controlplane/src/governance/approvals/approval-service.js';
import type { ApprovalOutcome } from '../../../../controlplane/src/governance/approvals/approval-types.js';
import {
  type AuditStore,
  createAuditLog,
} from '../../../../controlplane/src/governance/audit/audit-log.js';
import {
  createLocalNotifyChannel,
  type NotifyChannel,
} from '../../../../controlplane/src/platform/notify/notify-channel.js';
import {
  type ApprovalStore,
  createApprovalRepository,
} from '../../../../controlplane/src/platform/store/approval-repository.js';
import { createAuditRepository } from '../../../../controlplane/src/platform/store/audit-repository.js';
import { openDatabase } from '../../../../controlplane/src/platform/store/database.js';
import { createPgApprovalRepository } from '../../../../controlplane/src/platform/store/pg/pg-approval-repository.js';
import { createPgAuditRepository } from '../../../../controlplane/src/platform/store/pg/pg-audit-repository.js';
import { openPgDatabase } from '../../../../controlplane/src/platform/store/pg/pg-database.js';
import { openPgNotifyChannel } from '../../../../controlplane/src/platform/store/pg/pg-notify-channel.js';
import { requires } from '../../../support/capabilities.js';
import { type PostgresCluster, startPostgres } from '../../../support/postgres/start-postgres.js';
import { silentLogger } from '../../../support/silent-logger.js';
import { createRecordingNotifier, createSteppedClock, sampleRequest } from './approvals-fixture.js';

type Clock = typeof systemClock;

function replica(
  stores: { approvals: ApprovalStore; audit: AuditStore },
  notify: NotifyChannel | undefined,
  clock: Clock = systemClock,
): ApprovalService {
  return createApprovalService({
    store: stores.approvals,
    audit: createAuditLog(stores.audit, clock),
    clock,
    logger: silentLogger,
    newId: randomUUID,
    notify,
  });
}

/** The id of the one pending request, once it is stored. */
async function pendingId(service: ApprovalService): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const [open] = await service.list({ status: 'pending', limit: 1 });
    if (open) return open.id;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('no pending approval');
}

/** `outcome`, or a rejection after `ms` (the old code never resolved it). */
function within<T>(outcome: Promise<T>, ms: number): Promise<T> {
  return Promise.race([
    outcome,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`not resolved within ${ms} ms`)), ms).unref(),
    ),
  ]);
}

/** Two SQLite connections to one database file (two processes' view of it). */
function sqliteStore() {
  const dir = mkdtempSync(join(tmpdir(), 'clawdie-approval-replicas-'));
  const opened = [openDatabase(join(dir, 'store.db')), openDatabase(join(dir, 'store.db'))];
  const [one, two] = opened.map(({ db }) => ({
    approvals: createApprovalRepository(db),
    audit: createAuditRepository(db),
  }));
  if (!one || !two) throw new Error('unreachable');
  return {
    one,
    two,
    close() {
      for (const database of opened) database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe('approvals across replicas: one store, one in-process channel', () => {
  for (const answer of ['approve', 'deny'] as const) {
    it(`resolves a request waiting on replica 1 that replica 2 answers (${answer})`, async (t) => {
      const store = sqliteStore();
      const channel = createLocalNotifyChannel();
      const one = replica(store.one, channel);
      const two = replica(store.two, channel);
      t.after(async () => {
        await Promise.all([one.close(), two.close()]);
        store.close();
      });
      const waiting = one.request({ ...sampleRequest, timeoutMs: 60_000 });
      const id = await pendingId(two);
      const started = performance.now();
      await two.answer(id, answer, 'api:tenant:ops/alice');
      const outcome = await within(waiting, 2_000);
      const expected: ApprovalOutcome =
        answer === 'approve'
          ? { approved: true, approvalId: id, by: 'api:tenant:ops/alice' }
          : { approved: false, approvalId: id, by: 'api:tenant:ops/alice', why: 'denied' };
      assert.deepEqual(outcome, expected);
      t.diagnostic(
        `answered on replica 2 → resolved on replica 1 in ${(performance.now() - started).toFixed(1)} ms`,
      );
    });
  }

  it('takes the stored answer at the timeout when the announcement never came', async (t) => {
    const store = sqliteStore();
    const clock = createSteppedClock();
    // Replica 2 announces nothing (its channel is not the one replica 1 listens on).
    const one = replica(store.one, createLocalNotifyChannel(), clock);
    const two = replica(store.two, undefined, clock);
    t.after(async () => {
      await Promise.all([one.close(), two.close()]);
      store.close();
    });
    const waiting = one.request(sampleRequest);
    const id = await pendingId(two);
    await two.answer(id, 'approve', 'telegram:42');
    clock.advance(sampleRequest.timeoutMs);
    assert.deepEqual(await within(waiting, 2_000), {
      approved: true,
      approvalId: id,
      by: 'telegram:42',
    });
    assert.equal((await one.get(id))?.status, 'approved');
  });
});

describe('approvals across replicas: PostgreSQL', { skip: requires('postgres').skip }, () => {
  let cluster: Promise<PostgresCluster> | null = null;
  after(async () => {
    if (cluster) await (await cluster).stop();
  });

  /** A replica with its own pool and its own listening connection, as a process would have. */
  async function pgReplica(url: string, retryMs: number) {
    const database = await openPgDatabase(url, { maxConnections: 2 });
    const notify = await openPgNotifyChannel({
      url,
      pool: database.db.$client,
      logger: silentLogger,
      retryMs,
      maxRetryMs: retryMs,
    });
    const service = replica(
      {
        approvals: createPgApprovalRepository(database.db),
        audit: createPgAuditRepository(database.db),
      },
      notify,
    );
    return {
      service,
      notify,
      async close() {
        await service.close();
        await notify.close();
        await database.close();
      },
    };
  }

  it('resolves on replica 1 what replica 2 answered, also when the announcement was missed during a restart', async (t) => {
    cluster ??= startPostgres();
    const running = await cluster;
    const url = await running.createDatabase();
    // Replica 1 listens again only 3 s after losing its connection: replica 2 answers before.
    const one = await pgReplica(url, 3_000);
    const two = await pgReplica(url, 50);
    t.after(async () => {
      await one.close();
      await two.close();
    });

    const first = one.service.request({ ...sampleRequest, timeoutMs: 60_000 });
    const firstId = await pendingId(two.service);
    let started = performance.now();
    await two.service.answer(firstId, 'deny', 'api:tenant:ops/bob');
    assert.deepEqual(await within(first, 5_000), {
      approved: false,
      approvalId: firstId,
      by: 'api:tenant:ops/bob',
      why: 'denied',
    });
    t.diagnostic(`over LISTEN/NOTIFY in ${(performance.now() - started).toFixed(1)} ms`);

    let resumed = 0;
    one.notify.onResumed(() => resumed++);
    // Sent to the supervisors once stored and audited: nothing of replica 1 is in flight then.
    const sent = createRecordingNotifier();
    one.service.attach(sent.notifier);
    const second = one.service.request({ ...sampleRequest, timeoutMs: 60_000 });
    while (sent.requested.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const secondId = sent.requested[0]?.record.id ?? '';
    await running.restart(200);
    // Replica 2's pool may hand out a connection the restart cut: retry until it answers.
    for (let attempt = 0; ; attempt++) {
      try {
        await two.service.answer(secondId, 'approve', 'api:tenant:ops/alice');
        break;
      } catch (error) {
        if (attempt >= 20) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    assert.equal(resumed, 0, 'replica 1 listened again before the answer: nothing was missed');
    started = performance.now();
    assert.deepEqual(await within(second, 10_000), {
      approved: true,
      approvalId: secondId,
      by: 'api:tenant:ops/alice',
    });
    assert.equal(resumed, 1, 'resolved by the re-read after listening again');
    t.diagnostic(
      `missed announcement recovered ${(performance.now() - started).toFixed(0)} ms after the answer`,
    );
  });
});
