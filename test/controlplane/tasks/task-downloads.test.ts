// The run's downloads against a fake browser: what a clone claims is checked, never trusted.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { DownloadEntry, DownloadPolicy } from '@clawdie/kit/jail-api';
import type { BrowserDownloads } from '../../../controlplane/src/browser/downloads/jail-downloads.js';
import { policySchema } from '../../../controlplane/src/governance/policy/policy-schema.js';
import { createArtifactFiles } from '../../../controlplane/src/platform/store/artifact-files.js';
import { createTaskDownloads } from '../../../controlplane/src/tasks/task-downloads.js';
import { silentLogger } from '../../support/silent-logger.js';

const dataDir = mkdtempSync(join(tmpdir(), 'clawdie-task-downloads-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));

const BODY = 'a,b\n1,2\n';
const entry = (over: Partial<DownloadEntry>): DownloadEntry => ({
  id: 'guid-1',
  name: 'orders.csv',
  url: 'http://shop/export',
  state: 'completed',
  bytes: BODY.length,
  kind: 'csv',
  mime: 'text/csv',
  sha256: createHash('sha256').update(BODY).digest('hex'),
  refusal: null,
  started_at: 0,
  ...over,
});

/** A browser that lists `entries` and answers each read with `body`. */
function fakeBrowser(entries: DownloadEntry[], body: string) {
  const calls: string[] = [];
  let configured: DownloadPolicy | null = null;
  const browser: BrowserDownloads = {
    configure: async (policy) => {
      configured = policy;
    },
    list: async () => entries,
    read: async () => new Blob([body]).stream(),
    clear: async () => {
      calls.push('clear');
    },
  };
  return { browser, calls, policy: () => configured };
}

function run(taskId: string, entries: DownloadEntry[], body: string, files = defaults()) {
  const fake = fakeBrowser(entries, body);
  const audited: { type: string; data: Record<string, unknown> }[] = [];
  const downloads = createTaskDownloads({
    taskId,
    browser: fake.browser,
    files,
    store: createArtifactFiles(dataDir),
    audit: (type, data) => void audited.push({ type, data }),
    now: () => 0,
    sleep: async () => undefined,
    logger: silentLogger,
  });
  return { downloads, audited, fake };
}
const defaults = () =>
  policySchema.parse({
    tenant: 't',
    domains: { allow: ['*'] },
    max_steps: 1,
    files: { download: 'allowed' },
  }).files;

describe('task downloads', () => {
  it('stores a finished file, tells the model once, audits it with its step, then clears', async () => {
    const { downloads, audited, fake } = run('task-a', [entry({})], BODY);
    await downloads.open();
    assert.equal(fake.policy()?.download, 'allowed');
    assert.equal(fake.policy()?.max_file_bytes, 25 * 1024 * 1024);
    await downloads.afterStep(2);
    assert.deepEqual(downloads.notes(), ['The download "orders.csv" finished (8 bytes).']);
    await downloads.afterStep(3);
    assert.deepEqual(downloads.notes(), [], 'told once');
    const artifacts = await downloads.collect(true);
    assert.equal(artifacts.length, 1);
    assert.deepEqual(
      audited.map((row) => [row.type, row.data.step, row.data.name]),
      [['artifact-stored', 2, 'orders.csv']],
    );
    assert.deepEqual(fake.calls, ['clear']);
  });

  it('drops a file whose bytes differ from what the clone listed, and audits it', async () => {
    const { downloads, audited } = run('task-b', [entry({})], 'a,b\n9,9\n');
    const artifacts = await downloads.collect(true);
    assert.deepEqual(artifacts, []);
    assert.deepEqual(
      audited.map((row) => [row.type, row.data.refusal]),
      [['download-refused', 'copy_failed']],
    );
    assert.deepEqual(readdirSync(join(dataDir, 'traces', 'task-b', 'artifacts')), []);
  });

  it('stops a copy past the size the clone listed', async () => {
    const { downloads, audited } = run('task-c', [entry({ bytes: 4 })], BODY);
    assert.deepEqual(await downloads.collect(true), []);
    assert.equal(audited[0]?.data.refusal, 'copy_failed');
  });

  it('sets downloads off without a policy, and reports refusals', async () => {
    const refused = entry({ state: 'refused', refusal: 'downloads_off', sha256: null });
    const { downloads, audited, fake } = run('task-d', [refused], BODY, null as never);
    await downloads.open();
    assert.equal(fake.policy()?.download, 'off');
    await downloads.afterStep(1);
    assert.deepEqual(downloads.notes(), ['The download "orders.csv" was refused (downloads_off).']);
    assert.deepEqual(await downloads.collect(true), []);
    assert.deepEqual(
      audited.map((row) => [row.type, row.data.refusal, row.data.step]),
      [['download-refused', 'downloads_off', 1]],
    );
  });

  it('asks nothing more of a browser whose policy could not be set', async () => {
    const { downloads, fake } = run('task-e', [entry({})], BODY);
    let listed = 0;
    fake.browser.configure = async () => {
      throw new Error('no /downloads here');
    };
    fake.browser.list = async () => {
      listed += 1;
      return [];
    };
    await downloads.open();
    await downloads.afterStep(1);
    assert.deepEqual(await downloads.collect(true), []);
    assert.equal(listed, 0);
    assert.deepEqual(fake.calls, []);
  });
});
