import type { Logger } from 'pino';
import type { Clock } from '../../clock.js';
import type { NoticeSender } from '../../governance/approvals/notice-sender.js';
import type { AuditLog } from '../../governance/audit/audit-log.js';
import type { TaskRepository } from '../../platform/store/task-repository.js';
import type { TakeoverAppDeps } from './takeover-app-deps.js';
import { createTakeoverLinks } from './takeover-links.js';
import { TakeoverRegistry } from './takeover-registry.js';
import type { OnHandBack } from './takeover-routes.js';
import { TakeoverSessions } from './takeover-sessions.js';
import type { TakeoverDeps } from './task-handoff.js';

export interface Takeover {
  /** For the task service (`TaskServiceDeps.takeover`). */
  tasks: TakeoverDeps;
  /** For the HTTP app (`AppDeps.takeover`). */
  app: TakeoverAppDeps;
  /** Where links point, once the server knows its address (unless configured). */
  setPublicUrl(url: string): void;
}

/**
 * One registry, link signer and session store shared by the task service and the routes.
 * `onHandBack` is the saved-sessions port (a no-op when absent).
 */
export function createTakeover(options: {
  publicUrl: string | null;
  linkTtlMs: number;
  repository: TaskRepository;
  audit: AuditLog;
  clock: Clock;
  logger: Logger;
  notify?: NoticeSender | undefined;
  onHandBack?: OnHandBack | undefined;
}): Takeover {
  const { repository, audit, clock, logger } = options;
  const registry = new TakeoverRegistry();
  const links = createTakeoverLinks({ clock, ttlMs: options.linkTtlMs });
  const publicUrl = options.publicUrl ?? 'http://127.0.0.1';
  const shared = { registry, links, audit, clock, logger, publicUrl };
  const tasks: TakeoverDeps = { ...shared, notify: options.notify };
  const app: TakeoverAppDeps = {
    ...shared,
    repository,
    sessions: new TakeoverSessions(clock),
    onHandBack: options.onHandBack,
  };
  return {
    tasks,
    app,
    setPublicUrl(url) {
      if (options.publicUrl) return;
      tasks.publicUrl = url;
      app.publicUrl = url;
    },
  };
}
