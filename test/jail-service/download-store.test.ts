// The download store over a scripted browser (the DownloadBrowser port) and a real directory: a
// download is listed as refused only once its file is gone. Polled the way a client polls the
// list (each turn of the event loop), the store used to list the refusal while its file was still
// on disk, until the deletion it had started finished.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { DownloadEntry } from '@clawdie/kit/jail-api';
import type {
  DownloadBegun,
  DownloadBrowser,
  DownloadProgress,
} from '../../jail-service/src/downloads/download-port.js';
import { createDownloadStore } from '../../jail-service/src/downloads/download-store.js';
import { silentLogger } from '../support/silent-logger.js';

/** A browser that writes each download's bytes into the directory it was given, on demand. */
function scriptedBrowser() {
  let dir: string | null = null;
  const begun: ((event: DownloadBegun) => void)[] = [];
  const progressed: ((event: DownloadProgress) => void)[] = [];
  const cancelled: string[] = [];
  const browser: DownloadBrowser = {
    async setDirectory(next) {
      dir = next;
    },
    async cancel(guid) {
      cancelled.push(guid);
    },
    onBegin: (listener) => begun.push(listener),
    onProgress: (listener) => progressed.push(listener),
    async detach() {},
  };
  return {
    browser,
    cancelled,
    /** One download from start to finish: its file written whole, then `completed`. */
    async download(guid: string, name: string, bytes: Buffer) {
      assert.ok(dir, 'downloads allowed');
      for (const listener of begun)
        listener({ guid, url: `https://shop.test/${name}`, suggestedFilename: name });
      await writeFile(join(dir, guid), bytes);
      const done = { guid, receivedBytes: bytes.length, totalBytes: bytes.length };
      for (const listener of progressed) listener({ ...done, state: 'completed' });
    },
  };
}

/** Polls `list` every turn of the event loop until `id` is no longer in progress. */
async function settled(list: () => DownloadEntry[], id: string): Promise<DownloadEntry> {
  for (let turn = 0; turn < 100_000; turn += 1) {
    const entry = list().find((each) => each.id === id);
    if (entry && entry.state !== 'in_progress') return entry;
    await new Promise((resolve) => setImmediate(resolve));
  }
  assert.fail(`${id} never settled`);
}

// An executable (MZ header), whatever its name says.
const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(2046, 0x90)]);
const PDF = Buffer.concat([
  Buffer.from('%PDF-1.7\n'),
  Buffer.alloc(1490, 0x20),
  Buffer.from('%%EOF\n'),
]);

describe('download store (scripted browser, real directory)', () => {
  let root: string;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'clawdie-download-store-'));
  });
  after(async () => {
    await rm(root, { recursive: true, force: true });
  });
  const files = async () =>
    (await Promise.all((await readdir(root)).map((dir) => readdir(join(root, dir))))).flat();

  it('lists a refusal only once its file is deleted', async () => {
    const scripted = scriptedBrowser();
    const store = createDownloadStore({ browser: scripted.browser, root, logger: silentLogger });
    await store.configure({
      download: 'allowed',
      max_file_bytes: 1 << 20,
      max_task_bytes: 1 << 20,
      types: ['pdf'],
    });
    for (let round = 0; round < 20; round += 1) {
      const id = `exe-${round}`;
      await scripted.download(id, 'report.pdf', EXE);
      const entry = await settled(store.list, id);
      assert.deepEqual([entry.state, entry.refusal], ['refused', 'type_not_allowed']);
      assert.deepEqual(await files(), [], `round ${round}: the refused file is gone`);
    }
    await store.clear();
  });

  it('keeps an allowed download and counts only kept bytes against the task limit', async () => {
    const scripted = scriptedBrowser();
    const store = createDownloadStore({ browser: scripted.browser, root, logger: silentLogger });
    // Room for the executable alone: counted after its refusal, it would leave none for the PDF.
    const limit = EXE.length;
    await store.configure({
      download: 'allowed',
      max_file_bytes: 1 << 20,
      max_task_bytes: limit,
      types: ['pdf'],
    });
    await scripted.download('exe', 'tool.pdf', EXE);
    assert.equal((await settled(store.list, 'exe')).refusal, 'type_not_allowed');
    await scripted.download('pdf', 'report.pdf', PDF);
    const kept = await settled(store.list, 'pdf');
    assert.equal(kept.state, 'completed', JSON.stringify(kept));
    const file = store.file('pdf');
    assert.ok(file && existsSync(file.path));
    await scripted.download('pdf2', 'again.pdf', PDF);
    assert.equal((await settled(store.list, 'pdf2')).refusal, 'task_limit');
    assert.deepEqual(await files(), ['pdf']);
    await store.clear();
    assert.deepEqual(await readdir(root), [], 'clear deletes the directory');
  });
});
