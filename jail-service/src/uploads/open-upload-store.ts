// The upload store of one jail-service: its root directory (configured, or a fresh temporary one
// removed on close).
import { mkdir, rm } from 'node:fs/promises';
import type { Logger } from 'pino';
import { createTemporaryDir } from '../temporary-dirs.js';
import { createUploadStore, type UploadStore } from './upload-store.js';

export interface OpenedUploads {
  store: UploadStore;
  /** Clears the store and removes a temporary root. Never throws. */
  close(): Promise<void>;
}

export async function openUploadStore(
  configured: string | null,
  logger: Logger,
): Promise<OpenedUploads> {
  const root = configured ?? (await createTemporaryDir('uploads'));
  if (configured) await mkdir(configured, { recursive: true, mode: 0o700 });
  const store = createUploadStore({ root, logger });
  return {
    store,
    async close() {
      await store.clear().catch((error: unknown) => logger.warn({ err: error }, 'uploads'));
      if (!configured)
        await rm(root, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
    },
  };
}
