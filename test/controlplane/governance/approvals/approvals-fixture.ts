import type { Clock } from '../../../../controlplane/src/clock.js';
import { createApprovalService } from '../../../../controlplane/src/governance/approvals/approval-service.js';
import type { ApprovalRecord } from '../../../../controlplane/src/governance/approvals/approval-types.js';
import type { Notifier } from '../../../../controlplane/src/governance/approvals/notifier.js';
import { createAuditLog } from '../../../../controlplane/src/governance/audit/audit-log.js';
import { createApprovalRepository } from '../../../../controlplane/src/platform/store/approval-repository.js';
import { createAuditRepository } from '../../../../controlplane/src/platform/store/audit-repository.js';
import { openDatabase } from '../../../../controlplane/src/platform/store/database.js';
import { silentLogger } from '../../../support/silent-logger.js';
import { sequentialIds } from '../../../support/test-task-deps.js';

/** A clock whose sleeps end only when `advance` passes them (or their signal aborts). */
export function createSteppedClock(
  start = 1_700_000_000_000,
): Clock & { advance(ms: number): void } {
  let now = start;
  const sleepers: { until: number; resolve: () => void }[] = [];
  return {
    now: () => now,
    advance(ms) {
      now += ms;
      for (const sleeper of sleepers.filter((s) => s.until <= now)) {
        sleepers.splice(sleepers.indexOf(sleeper), 1);
        sleeper.resolve();
      }
    },
    sleep(ms, signal) {
      return new Promise<void>((resolve, reject) => {
        signal?.throwIfAborted();
        const sleeper = { until: now + ms, resolve };
        sleepers.push(sleeper);
        signal?.addEventListener('abort', () => {
          sleepers.splice(sleepers.indexOf(sleeper), 1);
          reject(signal.reason);
        });
      });
    },
  };
}

/** A notifier that records what it is asked to send; `fail` makes it unreachable. */
export function createRecordingNotifier(options: { fail?: boolean } = {}) {
  const requested: { record: ApprovalRecord; screenshot: Buffer | null }[] = [];
  const closed: ApprovalRecord[] = [];
  const notifier: Notifier = {
    name: 'recording',
    async requestApproval(record, screenshot) {
      if (options.fail) throw new Error('connect ECONNREFUSED 127.0.0.1:9');
      requested.push({ record, screenshot });
    },
    async approvalClosed(record) {
      closed.push(record);
    },
  };
  return { notifier, requested, closed };
}

export function createApprovalsFixture(clock: Clock = createSteppedClock()) {
  const database = openDatabase(':memory:');
  const audit = createAuditLog(createAuditRepository(database.db), clock);
  const approvals = createApprovalService({
    store: createApprovalRepository(database.db),
    audit,
    clock,
    logger: silentLogger,
    newId: sequentialIds(),
  });
  return { approvals, audit, database, close: database.close };
}

export const sampleRequest = {
  taskId: 'task-1',
  tenant: 'acme',
  kind: 'credential' as const,
  reason: 'type secret bank_password on bank.example',
  detail: {
    url: 'https://bank.example/login',
    // Where the secret would go, as the gate saw its landing (issue 20).
    frame_origin: 'https://login.bank.example',
    field: 'password',
    autocomplete: 'current-password',
  },
  screenshot: Buffer.from([0xff, 0xd8, 0xff]),
  timeoutMs: 60_000,
};
