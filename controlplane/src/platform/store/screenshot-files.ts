import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Where screenshots live: `<dataDir>/traces/<taskId>/<name>.jpg` (step-001, …, final). */
export interface ScreenshotFiles {
  /** Writes the JPEG and returns its absolute path. */
  save(taskId: string, name: string, jpeg: Uint8Array): Promise<string>;
}

export function createScreenshotFiles(dataDir: string): ScreenshotFiles {
  return {
    async save(taskId, name, jpeg) {
      for (const part of [taskId, name]) {
        if (!/^[A-Za-z0-9-]+$/.test(part)) throw new Error(`unsafe path component: ${part}`);
      }
      const dir = join(dataDir, 'traces', taskId);
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const path = join(dir, `${name}.jpg`);
      await writeFile(path, jpeg, { mode: 0o600 });
      return path;
    },
  };
}
