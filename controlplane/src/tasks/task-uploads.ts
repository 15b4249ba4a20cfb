// A task's provided files (issue 23): sent to its browser's jail-service before the first step
// (the model is told their names, never a host path); after each step the file choosers the page
// opened are audited (`file-uploaded` with name, bytes, SHA-256 and the page's origin, or
// `upload-cancelled`) and told to the model in one line; at the end the clone's copies are deleted.
// Under `files.upload_approval: needs_approval` the jail-service holds each chooser and the gate
// asks a supervisor: approved, the file is set; else it stays unset (`upload-refused`) and the
// task ends APPROVAL_DENIED.
import type { UploadEvent, UploadFile } from '@clawdie/kit/jail-api';
import type { Logger } from 'pino';
import type { BrowserLease } from '../browser/provider/browser-provider.js';
import { type BrowserUploads, jailUploads } from '../browser/uploads/jail-uploads.js';
import { AppError, AuditWriteError, OperatorError } from '../errors.js';
import { appendOrLog } from '../governance/audit/append-or-log.js';
import { type AuditEvent, discardAuditLog } from '../governance/audit/audit-log.js';
import type { ActionGate } from '../governance/policy/gate-types.js';
import type { TaskDeps } from './task-deps.js';
import type { TaskPlan, UploadSource } from './task-plan.js';

export interface TaskUploads {
  /** Sends every file; rejects (the task ends with an error) when one cannot be sent. */
  open(): Promise<void>;
  /**
   * Audits and tells the choosers the step opened; decides held ones through the gate. Rejects
   * with APPROVAL_DENIED when a held file was not approved, or AUDIT_WRITE_FAILED when the gate
   * could not audit its decision (the file stays unset; the task ends).
   */
  afterStep(step: number, signal?: AbortSignal): Promise<void>;
  /** Lines for the model since the last call. */
  notes(): string[];
  /** A last look at the choosers, then the clone's copies deleted. Never throws. */
  close(): Promise<void>;
}

export interface TaskUploadsDeps {
  files: readonly UploadSource[];
  browser: BrowserUploads;
  /** Set: each chooser is held until `gate` (its `upload` request) allows the file. */
  approval?: { gate: ActionGate } | undefined;
  /** Records one row; resolves once kept (awaited, so a task's rows stay in order). Never rejects. */
  audit: (type: AuditEvent['type'], data: Record<string, unknown>) => void | Promise<void>;
  logger: Logger;
}

/** Why a chosen file was not set, by the chooser's outcome. */
const WHY_UNSET: Partial<Record<UploadEvent['outcome'], string>> = {
  failed: 'its input was gone by the time it was approved',
  held: 'the task ended before a supervisor decided',
  refused: 'a supervisor did not approve it',
};

const quoted = (names: string[]) => names.map((name) => `"${name}"`).join(', ');

export function createTaskUploads(deps: TaskUploadsDeps): TaskUploads {
  let pending: string[] = [];
  let lastSeq = 0;
  let step = 0;
  const report = async (event: UploadEvent) => {
    const { origin, accept } = event;
    if (event.outcome === 'uploaded' && event.file) {
      const { name, bytes, sha256 } = event.file;
      await deps.audit('file-uploaded', { name, bytes, sha256, origin, step });
      pending.push(`The file "${name}" (${bytes} bytes) was set on the page's file chooser.`);
    } else if (event.file) {
      const { name, bytes, sha256 } = event.file;
      const why = WHY_UNSET[event.outcome] ?? 'not approved';
      await deps.audit('upload-refused', { name, bytes, sha256, origin, step, why });
      pending.push(`The file "${name}" was not set on the page's file chooser: ${why}.`);
    } else {
      await deps.audit('upload-cancelled', { origin, accept, step });
      pending.push('A file chooser opened and was cancelled: no file was provided for it.');
    }
  };
  /** A held chooser decided: approved, its file is set; else refused, and the task ends. */
  const decide = async (event: UploadEvent, file: UploadFile, signal: AbortSignal) => {
    const { origin, accept } = event;
    const verdict = deps.approval
      ? await deps.approval.gate({ step, upload: { file, origin, accept } }, signal)
      : ({ allowed: false, message: 'no supervisor decides uploads' } as const);
    const decided = await deps.browser
      .decide(event.seq, verdict.allowed ? 'set' : 'refuse')
      .catch((error: unknown) => {
        deps.logger.warn({ err: error }, 'a held file chooser could not be decided');
        return { ...event, outcome: 'failed' as const };
      });
    await report(decided);
    if (!verdict.allowed) throw new AppError('APPROVAL_DENIED', verdict.message, { status: 403 });
  };
  /** The choosers opened since the last look; with `signal`, held ones are decided. */
  const look = async (signal?: AbortSignal) => {
    const { events } = await deps.browser.list();
    const fresh = events.filter((candidate) => candidate.seq > lastSeq);
    lastSeq = Math.max(lastSeq, ...events.map((event) => event.seq));
    for (const event of fresh) {
      if (event.outcome === 'held' && event.file && signal) await decide(event, event.file, signal);
      else await report(event);
    }
  };
  return {
    async open() {
      const hold = deps.approval !== undefined;
      for (const file of deps.files) {
        const sent = await deps.browser.send(file.name, file.path, { hold });
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
    async afterStep(done, signal = new AbortController().signal) {
      step = done;
      try {
        await look(signal);
      } catch (error) {
        // A refused file, or a decision that could not be audited (its chooser stays unset): ends.
        if (error instanceof AppError && error.code === 'APPROVAL_DENIED') throw error;
        if (error instanceof AuditWriteError) throw error;
        if (signal.aborted) throw error;
        deps.logger.warn({ err: error }, 'the file choosers could not be listed');
      }
    },
    notes() {
      const lines = pending;
      pending = [];
      return lines;
    },
    async close() {
      // Held choosers nobody will decide now are listed as they are (unset).
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
const noUploads: BrowserUploads = {
  send: refuse,
  list: refuse,
  decide: refuse,
  clear: () => Promise.resolve(),
};

/**
 * A task's provided files through its browser's jail-service; null when it provides none and its
 * policy does not allow uploads (no chooser is reported then; the jail-service still cancels it).
 * Under `files.upload_approval: needs_approval` the task's `gate` decides each chooser.
 */
export function uploadsOf(
  lease: BrowserLease,
  plan: TaskPlan,
  taskId: string,
  deps: Pick<TaskDeps, 'audit' | 'logger'> & { gate: ActionGate },
): TaskUploads | null {
  const policyFiles = plan.rules.kind === 'policy' ? plan.rules.policy.files : null;
  const allowed = policyFiles?.upload === 'allowed';
  const files = plan.uploads ?? [];
  // Under a policy that allows uploads a chooser with no file provided is still reported.
  if (files.length === 0 && !(allowed && lease.service)) return null;
  const audit = deps.audit ?? discardAuditLog;
  return createTaskUploads({
    files,
    browser: lease.service ? jailUploads(lease.service) : noUploads,
    approval: policyFiles?.upload_approval === 'needs_approval' ? { gate: deps.gate } : undefined,
    audit: (type, data) =>
      appendOrLog(audit, { type, actor: plan.actor, taskId, data }, deps.logger),
    logger: deps.logger,
  });
}
