// A task's downloads (issue 23): the policy set on its browser before the first step; after each
// step a look at what the browser downloaded (refusals audited, finished files told to the model
// in one line); at the end, before the browser is kept or released, every finished file copied
// out through the jail-service, checked against its SHA-256, stored beside the trace and audited,
// and the clone's download directory cleared. Every method never throws (it logs and audits).
import type { DownloadEntry, DownloadPolicy } from '@clawdie/kit/jail-api';
import type { Logger } from 'pino';
import { type BrowserDownloads, jailDownloads } from '../browser/downloads/jail-downloads.js';
import type { BrowserLease } from '../browser/provider/browser-provider.js';
import { appendOrLog } from '../governance/audit/append-or-log.js';
import { type AuditEvent, discardAuditLog } from '../governance/audit/audit-log.js';
import type { TenantPolicy } from '../governance/policy/policy-schema.js';
import type { ArtifactFiles, StoredArtifact } from '../platform/store/artifact-files.js';
import type { TaskDeps } from './task-deps.js';
import type { Artifact } from './task-input.js';
import type { TaskPlan } from './task-plan.js';

/** How long the end of a task waits for downloads still arriving. */
const SETTLE_MS = 15_000;
/** Bound on copying one file out of the clone. */
const COPY_TIMEOUT_MS = 120_000;

export interface TaskDownloads {
  open(): Promise<void>;
  afterStep(step: number): Promise<void>;
  /** Lines for the model since the last call: one per download that finished or was refused. */
  notes(): string[];
  /** `settle`: first wait (bounded) for downloads still arriving. */
  collect(settle: boolean): Promise<Artifact[]>;
}

export interface TaskDownloadsDeps {
  taskId: string;
  browser: BrowserDownloads;
  /** The tenant policy's `files`; null (no policy): downloads are off. */
  files: TenantPolicy['files'] | null;
  store: ArtifactFiles;
  /** Records one row; resolves once kept (awaited, so a task's rows stay in order). Never rejects. */
  audit: (type: AuditEvent['type'], data: Record<string, unknown>) => void | Promise<void>;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  logger: Logger;
}

const OFF: DownloadPolicy = { download: 'off', max_file_bytes: 1, max_task_bytes: 1, types: [] };
const size = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : `${bytes} bytes`;

export function createTaskDownloads(deps: TaskDownloadsDeps): TaskDownloads {
  const { logger } = deps;
  const policy: DownloadPolicy = deps.files
    ? {
        download: deps.files.download,
        max_file_bytes: deps.files.max_file_bytes,
        max_task_bytes: deps.files.max_task_bytes,
        types: deps.files.types,
      }
    : OFF;
  /** Each download seen: the step it was first seen after, and whether its ending was reported. */
  const seen = new Map<string, { step: number; reported: boolean }>();
  let pending: string[] = [];
  let lastStep = 0;
  /** False when the policy could not be set (an older or unreachable jail-service): not asked again. */
  let reachable = true;

  const refused = async (entry: DownloadEntry, step: number, why: string) => {
    await deps.audit('download-refused', {
      name: entry.name,
      source_url: entry.url,
      step,
      refusal: why,
      bytes: entry.bytes,
      mime: entry.mime,
    });
  };
  const look = async (step: number, signal?: AbortSignal): Promise<DownloadEntry[]> => {
    const entries = await deps.browser.list(signal);
    for (const entry of entries) {
      const known = seen.get(entry.id) ?? { step, reported: false };
      seen.set(entry.id, known);
      if (known.reported || entry.state === 'in_progress') continue;
      known.reported = true;
      if (entry.state === 'refused') {
        await refused(entry, known.step, entry.refusal ?? 'failed');
        pending.push(`The download "${entry.name}" was refused (${entry.refusal}).`);
      } else {
        pending.push(`The download "${entry.name}" finished (${size(entry.bytes)}).`);
      }
    }
    return entries;
  };

  const copy = async (entry: DownloadEntry): Promise<StoredArtifact | null> => {
    const step = seen.get(entry.id)?.step ?? lastStep;
    try {
      const signal = AbortSignal.timeout(COPY_TIMEOUT_MS);
      const body = await deps.browser.read(entry.id, signal);
      const saved = await deps.store.save(deps.taskId, entry.name, body, entry.bytes);
      if (saved.sha256 !== entry.sha256 || saved.bytes !== entry.bytes) {
        await deps.store.remove(saved.path);
        throw new Error(`copied ${saved.bytes} bytes whose SHA-256 differs from the browser's`);
      }
      const artifact: StoredArtifact = {
        name: entry.name,
        bytes: saved.bytes,
        sha256: saved.sha256,
        mime: entry.mime ?? 'application/octet-stream',
        path: saved.path,
        source_url: entry.url,
        step,
        stored_at: deps.now(),
      };
      const { path: _path, ...facts } = artifact;
      await deps.audit('artifact-stored', facts);
      return artifact;
    } catch (error) {
      logger.warn({ err: error, name: entry.name }, 'a download could not be copied out');
      await refused(entry, step, 'copy_failed');
      return null;
    }
  };

  return {
    async open() {
      try {
        await deps.browser.configure(policy);
      } catch (error) {
        reachable = false;
        logger.warn({ err: error }, 'the download policy could not be set; downloads stay denied');
      }
    },
    async afterStep(step) {
      lastStep = step;
      if (!reachable) return;
      await look(step).catch((error: unknown) =>
        logger.warn({ err: error }, 'the browser downloads could not be listed'),
      );
    },
    notes() {
      const lines = pending;
      pending = [];
      return lines;
    },
    async collect(settle) {
      if (!reachable) return [];
      const artifacts: StoredArtifact[] = [];
      try {
        let entries = await look(lastStep);
        const deadline = deps.now() + SETTLE_MS;
        while (
          settle &&
          entries.some((entry) => entry.state === 'in_progress') &&
          deps.now() < deadline
        ) {
          await deps.sleep(100);
          entries = await look(lastStep);
        }
        for (const entry of entries) {
          if (entry.state === 'in_progress')
            await refused(entry, seen.get(entry.id)?.step ?? 0, 'unfinished');
          if (entry.state !== 'completed') continue;
          const artifact = await copy(entry);
          if (artifact) artifacts.push(artifact);
        }
        if (artifacts.length > 0) await deps.store.record(deps.taskId, artifacts);
      } catch (error) {
        logger.warn({ err: error }, 'the browser downloads could not be collected');
      }
      await deps.browser
        .clear()
        .catch((error: unknown) =>
          logger.warn({ err: error }, 'the browser download directory could not be cleared'),
        );
      return artifacts.map(({ name, bytes, sha256, mime, path }) => ({
        name,
        bytes,
        sha256,
        mime,
        path,
      }));
    },
  };
}

/**
 * A task's downloads, through its browser's jail-service under the tenant policy's `files` (off
 * without a policy); null without a jail-service (a fake browser) or an artifact store.
 */
export function downloadsOf(
  lease: BrowserLease,
  plan: TaskPlan,
  taskId: string,
  deps: Pick<TaskDeps, 'artifacts' | 'audit' | 'clock' | 'logger'>,
): TaskDownloads | null {
  if (!lease.service || !deps.artifacts) return null;
  const audit = deps.audit ?? discardAuditLog;
  return createTaskDownloads({
    taskId,
    browser: jailDownloads(lease.service),
    files: plan.rules.kind === 'policy' ? plan.rules.policy.files : null,
    store: deps.artifacts,
    audit: (type, data) =>
      appendOrLog(audit, { type, actor: plan.actor, taskId, data }, deps.logger),
    now: () => deps.clock.now(),
    sleep: (ms) => deps.clock.sleep(ms),
    logger: deps.logger,
  });
}
