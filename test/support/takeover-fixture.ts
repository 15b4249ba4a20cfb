// Takeover wiring for tests: one registry, links, sessions and a recording notice sender, built
// around the caller's repository and audit log (the same pieces server wiring puts together).
import type { Logger } from 'pino';
import type { TakeoverAppDeps } from '../../controlplane/src/browser/takeover/takeover-app-deps.js';
import { createTakeoverLinks } from '../../controlplane/src/browser/takeover/takeover-links.js';
import { TakeoverRegistry } from '../../controlplane/src/browser/takeover/takeover-registry.js';
import type { OnHandBack } from '../../controlplane/src/browser/takeover/takeover-routes.js';
import { TakeoverSessions } from '../../controlplane/src/browser/takeover/takeover-sessions.js';
import type { TakeoverDeps } from '../../controlplane/src/browser/takeover/task-handoff.js';
import { type Clock, systemClock } from '../../controlplane/src/clock.js';
import type { SupervisorNotice } from '../../controlplane/src/governance/approvals/notifier.js';
import {
  type AuditLog,
  discardAuditLog,
} from '../../controlplane/src/governance/audit/audit-log.js';
import type { TaskRepository } from '../../controlplane/src/platform/store/task-repository.js';
import { silentLogger } from './silent-logger.js';

export interface TakeoverFixture {
  /** For the task service (`TaskServiceDeps.takeover`). */
  tasks: TakeoverDeps;
  /** For the HTTP app (`AppDeps.takeover`). */
  app: TakeoverAppDeps;
  /** Notices sent (when no `notify` was given). */
  notices: SupervisorNotice[];
  /** Hand-back port calls (the fake of saved sessions). */
  handBacks: Parameters<OnHandBack>[];
}

export function createTakeoverFixture(options: {
  repository: TaskRepository;
  audit?: AuditLog;
  clock?: Clock;
  /** The clock links are checked on (default `clock`): a test moves it past an expiry. */
  linkClock?: Clock;
  publicUrl?: string;
  linkTtlMs?: number;
  notify?: TakeoverDeps['notify'];
  logger?: Logger;
}): TakeoverFixture {
  const clock = options.clock ?? systemClock;
  const audit = options.audit ?? discardAuditLog;
  const registry = new TakeoverRegistry();
  const links = createTakeoverLinks({
    clock: options.linkClock ?? clock,
    ...(options.linkTtlMs ? { ttlMs: options.linkTtlMs } : {}),
  });
  const publicUrl = options.publicUrl ?? 'http://127.0.0.1:7070';
  const notices: SupervisorNotice[] = [];
  const handBacks: Parameters<OnHandBack>[] = [];
  const notify =
    options.notify ??
    (async (notice: SupervisorNotice) => {
      notices.push(notice);
    });
  const logger = options.logger ?? silentLogger;
  const shared = { registry, links, audit, clock, logger, publicUrl };
  return {
    tasks: { ...shared, notify },
    app: {
      ...shared,
      repository: options.repository,
      sessions: new TakeoverSessions(clock),
      onHandBack: async (...call) => {
        handBacks.push(call);
      },
    },
    notices,
    handBacks,
  };
}
