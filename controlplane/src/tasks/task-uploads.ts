// A task's provided files (issue 23): sent to its browser's jail-service before the first step
// (the model is told their names, never a host path); after each step the file choosers the page
// opened are audited (`file-uploaded` with name, bytes, SHA-256 and the page's origin, or
// `upload-cancelled`) and told to the model in one line; at the end the clone's copies are deleted.
import type { UploadEvent } from '@clawdie/kit/jail-api';
import type { Logger } from 'pino';
import type { BrowserLease } from '../browser/provider/browser-provider.js';
import { type BrowserUploads, jailUploads } from '../browser/uploads/jail-uploads.js';
import { OperatorError } from '../errors.js';
import { type AuditEvent, discardAuditLog } from '../governance/audit/audit-log.js';
import type { TaskDeps } from './task-deps.js';
import type { TaskPlan, UploadSource } from './task-plan.js';

export interface TaskUploads {
  /** Sends every file; rejects (the task ends with an error) when one cannot be sent. */
  open(): Promise<void>;
  afterStep(step: number): Promise<void>;
  /** Lines for the model since the last call. */
  notes(): string[];
  /** A last look at the choosers, then the clone's copies deleted. Never throws. */
  close(): Promise<void>;
}

export interface TaskUploadsDeps {
  files: readonly UploadSource[];
  browser: BrowserUploads;
  audit: (type: AuditEvent['type'], data: Record<string, unknown>) => void;
  logger: Logger;
}

const quoted = (names: string[]) => names.map((name) => `"${name}"`).join(', ');

export function createTaskUploads(deps: TaskUploadsDeps): TaskUploads {
  let pending: string[] = [];
  let lastSeq = 0;
  let step = 0;
  const report = (event: UploadEvent) => {
    if (event.outcome === 'uploaded' && event.file) {
      const { name, bytes, sha256 } = event.file;
      deps.audit('file-uploaded', { name, bytes, sha256, origin: event.origin, step });
      pending.push(`The file "${name}" (${bytes} bytes) was set on the page's file chooser.`);
    } else {
      deps.audit('upload-cancelled', { origin: event.origin, accept: event.accept, step });
      pending.push('A file chooser opened and was cancelled: no file was provided for it.');
    }
  };
  const look = async () => {
    const { events } = await deps.browser.list();
    for (const event of events.filter((candidate) => candidate.seq > lastSeq)) report(event);
    lastSeq = Math.max(lastSeq, ...events.map((event) => event.seq));
  };
  return {
    async open() {
      for (const file of deps.files) {
        const sent = await deps.browser.send(file.name, file.path);
        if (sent.bytes !== file.bytes)
          throw new OperatorError(
            'OPERATOR_BAD_RESPONSE',
            `the file ${file.name} arrived with ${sent.bytes} of ${file.bytes} bytes`,
          );
      }
      if (deps.files.length > 0)
        pending.push(
          `Files provided for upload: ${quoted(deps.files.map((file) => file.name))}. To upload one, click the page's file input (or its upload button): the file is set for you. Never type a file path.`,
        );
    },
    async afterStep(done) {
      step = done;
      await look().catch((error: unknown) =>
        deps.logger.warn({ err: error }, 'the file choosers could not be listed'),
      );
    },
    notes() {
      const lines = pending;
      pending = [];
      return lines;
    },
    async close() {
      await look().catch(() => undefined);
      await deps.browser
        .clear()
        .catch((error: unknown) =>
          deps.logger.warn({ err: error }, 'the upload directory could not be cleared'),
        );
    },
  };
}

const refuse = () =>
  Promise.reject(new OperatorError('OPERATOR_UNAVAILABLE', 'this browser cannot take files'));
/** A browser without a jail-service (a fake): the task ends before its first step. */
const noUploads: BrowserUploads = { send: refuse, list: refuse, clear: () => Promise.resolve() };

/**
 * A task's provided files through its browser's jail-service; null when it provides none and its
 * policy does not allow uploads (no chooser is reported then; the jail-service still cancels it).
 */
export function uploadsOf(
  lease: BrowserLease,
  plan: TaskPlan,
  taskId: string,
  deps: Pick<TaskDeps, 'audit' | 'logger'>,
): TaskUploads | null {
  const allowed = plan.rules.kind === 'policy' && plan.rules.policy.files.upload === 'allowed';
  const files = plan.uploads ?? [];
  // Under a policy that allows uploads a chooser with no file provided is still reported.
  if (files.length === 0 && !(allowed && lease.service)) return null;
  const audit = deps.audit ?? discardAuditLog;
  return createTaskUploads({
    files,
    browser: lease.service ? jailUploads(lease.service) : noUploads,
    audit: (type, data) => {
      try {
        audit.append({ type, actor: plan.actor, taskId, data });
      } catch (error) {
        deps.logger.error({ err: error, auditType: type }, 'audit append failed');
      }
    },
    logger: deps.logger,
  });
}
