// Downloads in a real Chromium through the jail-service (issue 23): the per-task directory, the
// policy (off, per-file and per-task bytes, types sniffed from the bytes), the listing and the
// copy-out route; every allowed file arrives intact and nothing is left behind.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  DEFAULT_DOWNLOAD_KINDS,
  type DownloadEntry,
  type DownloadPolicy,
  downloadListSchema,
} from '@clawdie/kit/jail-api';
import { requires } from '../support/capabilities.js';
import {
  BIG_BYTES,
  type DownloadSite,
  startDownloadSite,
  TRAP_POINTS,
  type Trap,
} from '../support/download-site.js';
import { startTestJail, type TestJail } from './jail-harness.js';

const MiB = 1024 * 1024;
const ALLOWED: DownloadPolicy = {
  download: 'allowed',
  max_file_bytes: 10 * MiB,
  max_task_bytes: 20 * MiB,
  types: [...DEFAULT_DOWNLOAD_KINDS],
};

describe('jail-service downloads (real Chromium)', requires('chromium'), () => {
  let site: DownloadSite;
  let jail: TestJail;
  let root: string;

  const send = (method: string, path: string, body?: unknown) =>
    jail.client.fetch(path, {
      method,
      ...(body === undefined
        ? {}
        : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
  const setPolicy = async (policy: DownloadPolicy) => {
    const response = await send('PUT', '/downloads/policy', policy);
    assert.equal(response.status, 200, await response.text());
  };
  const list = async (): Promise<DownloadEntry[]> => {
    const response = await send('GET', '/downloads');
    assert.equal(response.status, 200);
    return downloadListSchema.parse(await response.json()).downloads;
  };
  /** Clicks the trap and waits until a new download has settled (completed or refused). */
  const trigger = async (trap: Trap): Promise<DownloadEntry> => {
    const before = new Set((await list()).map((entry) => entry.id));
    await jail.client.run([{ type: 'click', ...TRAP_POINTS[trap] }]);
    const end = Date.now() + 30_000;
    while (Date.now() < end) {
      const fresh = (await list()).find((entry) => !before.has(entry.id));
      if (fresh && fresh.state !== 'in_progress') return fresh;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.fail(`${trap}: no settled download within 30 s`);
  };
  const leftovers = async () => {
    const dirs = await readdir(root);
    const files = await Promise.all(dirs.map((dir) => readdir(join(root, dir))));
    return files.flat();
  };

  before(async () => {
    site = await startDownloadSite();
    root = await mkdtemp(join(tmpdir(), 'clawdie-download-test-'));
    jail = await startTestJail({ CLAWDIE_JAIL_DOWNLOAD_DIR: root });
  });
  after(async () => {
    await jail?.close();
    await site?.close();
    await rm(root, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await jail.client.run([{ type: 'navigate', url: `${site.url}/` }]);
  });

  it('denies and lists a download before any policy, leaving no file', async () => {
    const entry = await trigger('pdf');
    assert.equal(entry.state, 'refused');
    assert.equal(entry.refusal, 'downloads_off');
    assert.equal(entry.name, 'report.pdf');
    assert.equal(entry.url, `${site.url}/files/report.pdf`);
    assert.deepEqual(await leftovers(), []);
  });

  it('keeps a link, a POST attachment and a blob: download intact, typed from their bytes', async () => {
    await setPolicy(ALLOWED);
    for (const trap of ['pdf', 'post', 'blob'] as const) {
      const entry = await trigger(trap);
      const expected = site.expected[trap];
      assert.equal(entry.state, 'completed', JSON.stringify(entry));
      assert.equal(entry.name, expected.name);
      assert.equal(entry.bytes, expected.bytes);
      assert.equal(entry.mime, expected.mime, 'sniffed, not the Content-Type header');
      assert.equal(entry.sha256, expected.sha256);
      const file = await send('GET', `/downloads/${entry.id}`);
      assert.equal(file.status, 200);
      const bytes = Buffer.from(await file.arrayBuffer());
      assert.equal(createHash('sha256').update(bytes).digest('hex'), expected.sha256);
    }
    assert.match((await list()).find((entry) => entry.name === 'data.json')?.url ?? '', /^blob:/);
  });

  it('cancels a 50 MiB file over the per-file limit, with or without a length, and deletes it', async () => {
    await setPolicy(ALLOWED);
    for (const trap of ['big', 'bigChunked'] as const) {
      const entry = await trigger(trap);
      assert.equal(entry.state, 'refused');
      assert.equal(entry.refusal, 'file_too_large');
      assert.ok(entry.bytes < BIG_BYTES, `stopped at ${entry.bytes} bytes`);
      assert.equal((await send('GET', `/downloads/${entry.id}`)).status, 404);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(await leftovers(), [], 'no partial file is left');
  });

  it('refuses a type the policy does not allow (an executable sent as application/pdf)', async () => {
    await setPolicy(ALLOWED);
    const entry = await trigger('exe');
    assert.equal(entry.state, 'refused');
    assert.equal(entry.refusal, 'type_not_allowed');
    assert.equal(entry.mime, 'application/octet-stream');
    await setPolicy({ ...ALLOWED, types: ['csv'] });
    assert.equal((await trigger('pdf')).refusal, 'type_not_allowed');
    assert.deepEqual(await leftovers(), []);
  });

  it('stops at the per-task byte limit', async () => {
    await setPolicy({ ...ALLOWED, max_task_bytes: 300 * 1024 });
    assert.equal((await trigger('pdf')).state, 'completed');
    const second = await trigger('pdf');
    assert.equal(second.state, 'refused');
    assert.equal(second.refusal, 'task_limit');
    assert.equal(second.name, 'report (2).pdf');
  });

  it('denies downloads under a policy that says off', async () => {
    await setPolicy({ ...ALLOWED, download: 'off' });
    assert.equal((await trigger('post')).refusal, 'downloads_off');
    assert.deepEqual(await leftovers(), []);
  });

  it('clears: DELETE /downloads and /reset remove the directory and deny again', async () => {
    await setPolicy(ALLOWED);
    assert.equal((await trigger('pdf')).state, 'completed');
    assert.equal((await readdir(root)).length, 1);
    assert.equal((await send('DELETE', '/downloads')).status, 200);
    assert.deepEqual(await readdir(root), [], 'the per-task directory is gone');
    assert.deepEqual(await list(), []);
    await setPolicy(ALLOWED);
    await trigger('pdf');
    assert.equal((await send('POST', '/reset')).status, 200);
    assert.deepEqual(await readdir(root), []);
    await jail.client.run([{ type: 'navigate', url: `${site.url}/` }]);
    assert.equal((await trigger('pdf')).refusal, 'downloads_off');
  });

  it('refuses a malformed policy and needs the bearer token', async () => {
    const bad = await send('PUT', '/downloads/policy', { download: 'sometimes' });
    assert.equal(bad.status, 400);
    const anonymous = await jail.client.fetch('/downloads', {}, null);
    assert.equal(anonymous.status, 401);
  });
});
