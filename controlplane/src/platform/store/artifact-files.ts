// Where a task's downloaded files live, beside its trace: `<dataDir>/traces/<taskId>/artifacts/<name>`
// (0600 in 0700 directories, like the screenshots), with their facts in
// `<dataDir>/traces/<taskId>/artifacts.json`.
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeHashed } from '@clawdie/kit/files';
import { downloadNameSchema } from '@clawdie/kit/jail-api';
import { z } from 'zod';
import { replaceFile } from './replace-file.js';

/** One stored artifact: the result's facts plus where it came from and which step caused it. */
export const storedArtifactSchema = z.object({
  name: downloadNameSchema,
  bytes: z.number().int().min(0),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  mime: z.string(),
  path: z.string(),
  source_url: z.string(),
  /** The step after which the download was first seen (a download start_url caused: step 1). */
  step: z.number().int().min(0),
  stored_at: z.number().int(),
});
export type StoredArtifact = z.infer<typeof storedArtifactSchema>;

export class ArtifactCopyError extends Error {
  readonly code = 'ARTIFACT_COPY_FAILED';
}

export interface ArtifactFiles {
  /**
   * Streams `body` into the task's artifact `name`, hashing it on the way; more than `maxBytes`
   * aborts the copy. Returns the path, size and SHA-256; a failed copy leaves no file.
   */
  save(
    taskId: string,
    name: string,
    body: ReadableStream<Uint8Array>,
    maxBytes: number,
  ): Promise<{ path: string; bytes: number; sha256: string }>;
  /** Deletes a stored file (one that failed its check). Never throws. */
  remove(path: string): Promise<void>;
  /** Records the task's artifacts (replacing any earlier record). */
  record(taskId: string, artifacts: readonly StoredArtifact[]): Promise<void>;
  /** The task's stored artifacts, in the order they were stored; [] when none. */
  list(taskId: string): Promise<StoredArtifact[]>;
}

const safeTaskId = (taskId: string) => {
  if (!/^[A-Za-z0-9-]+$/.test(taskId)) throw new Error(`unsafe path component: ${taskId}`);
  return taskId;
};

export function createArtifactFiles(dataDir: string): ArtifactFiles {
  const traceDir = (taskId: string) => join(dataDir, 'traces', safeTaskId(taskId));
  return {
    async save(taskId, name, body, maxBytes) {
      const safe = downloadNameSchema.parse(name);
      const dir = join(traceDir(taskId), 'artifacts');
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const path = join(dir, safe);
      try {
        const written = await writeHashed(
          body,
          path,
          maxBytes,
          () => new ArtifactCopyError(`${safe}: over ${maxBytes} bytes`),
        );
        return { path, ...written };
      } catch (error) {
        throw error instanceof ArtifactCopyError
          ? error
          : new ArtifactCopyError(`${safe}: ${(error as Error).message}`, { cause: error });
      }
    },
    async remove(path) {
      await rm(path, { force: true }).catch(() => undefined);
    },
    async record(taskId, artifacts) {
      const dir = traceDir(taskId);
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await replaceFile(join(dir, 'artifacts.json'), JSON.stringify(artifacts, null, 1));
    },
    async list(taskId) {
      const text = await readFile(join(traceDir(taskId), 'artifacts.json'), 'utf8').catch(
        () => null,
      );
      if (text === null) return [];
      // Where the file is now: a restored data dir holds it at its own path, not the source's.
      const dir = join(traceDir(taskId), 'artifacts');
      return z
        .array(storedArtifactSchema)
        .parse(JSON.parse(text))
        .map((artifact) => ({ ...artifact, path: join(dir, artifact.name) }));
    },
  };
}
