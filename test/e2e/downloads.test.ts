// Issue 23 (1, 4): download traps in local mode, through the one composition root and a real
// Chromium. A scripted model clicks a link to a PDF (sent as image/png), a form whose POST answers
// a Content-Disposition CSV, a blob: URL, an executable (sent as application/pdf) and a 50 MiB
// file: the three allowed files come back intact (hash checked) beside the trace, in the result,
// audited with the step that caused them; the model is told in one line; the executable and the
// oversize file are refused and audited; a tenant whose policy says off gets nothing; the
// browser's download directory is empty after each task.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  type LocalJailService,
  startLocalJailService,
} from '../../controlplane/src/browser/provider/local-jail-service.js';
import {
  loopbackPrincipal,
  type Principal,
} from '../../controlplane/src/governance/auth/scopes.js';
import { requires } from '../support/capabilities.js';
import { createTestControlplane, type TestControlplane } from '../support/controlplane.js';
import { recordingTrapModel, TRAP_VIEWPORT } from '../support/download-script.js';
import { type DownloadSite, startDownloadSite } from '../support/download-site.js';
import { silentLogger } from '../support/silent-logger.js';
import { testLauncher } from '../support/test-launcher.js';

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

describe('e2e: download traps in local mode (real Chromium)', requires('chromium'), () => {
  let site: DownloadSite;
  let jail: LocalJailService;
  let controlplane: TestControlplane;
  let policyDir = '';
  let downloadRoot = '';
  const recorded = recordingTrapModel();

  before(async () => {
    site = await startDownloadSite();
    downloadRoot = mkdtempSync(join(tmpdir(), 'clawdie-e2e-downloads-'));
    // As root the local browser runs as its own uid: it must be able to make its directories here.
    chmodSync(downloadRoot, 0o777);
    jail = await startLocalJailService({
      egressProxyUrl: null,
      launcher: testLauncher,
      env: { ...process.env, CLAWDIE_JAIL_DOWNLOAD_DIR: downloadRoot },
      logger: silentLogger,
    });
    policyDir = mkdtempSync(join(tmpdir(), 'clawdie-download-policies-'));
    const host = new URL(site.url).host;
    writeFileSync(
      join(policyDir, 'default.yaml'),
      `tenant: default\ndomains: { allow: ["${host}"] }\nmax_steps: 8\nfiles: { download: allowed, max_file_bytes: 10485760 }\n`,
    );
    writeFileSync(
      join(policyDir, 'closed.yaml'),
      `tenant: closed\ndomains: { allow: ["${host}"] }\nmax_steps: 8\n`,
    );
    controlplane = await createTestControlplane({
      browsers: 'config',
      model: recorded.model,
      env: {
        CLAWDIE_JAIL_URL: jail.url,
        CLAWDIE_JAIL_TOKEN: jail.token,
        CLAWDIE_POLICY_DIR: policyDir,
        CLAWDIE_JAIL_VIEWPORT: `${TRAP_VIEWPORT.width}x${TRAP_VIEWPORT.height}`,
      },
    });
  });
  after(async () => {
    await controlplane?.close();
    await jail?.stop();
    await site?.close();
    for (const dir of [policyDir, downloadRoot])
      if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const run = async (principal: Principal) => {
    const input = { instruction: 'Download the files', start_url: `${site.url}/` };
    const plan = await controlplane.tasks.admit(input, principal);
    return (await controlplane.tasks.start(plan)).done;
  };
  const audited = async (taskId: string, type: string) =>
    (await controlplane.audit.list({ limit: 100, taskId, type })).map((row) => row.data);
  const leftovers = () =>
    readdirSync(downloadRoot).flatMap((dir) => readdirSync(join(downloadRoot, dir)));

  it('keeps the allowed files intact, refuses the executable and the 50 MiB file, and says so', async () => {
    const result = await run(loopbackPrincipal);
    assert.equal(result.status, 'finished', JSON.stringify(result));
    const artifacts = result.artifacts ?? [];
    assert.deepEqual(
      artifacts.map((artifact) => artifact.name),
      ['report.pdf', 'orders.csv', 'data.json'],
    );
    for (const [index, trap] of (['pdf', 'post', 'blob'] as const).entries()) {
      const artifact = artifacts[index];
      const expected = site.expected[trap];
      assert.ok(artifact);
      assert.equal(artifact.bytes, expected.bytes);
      assert.equal(artifact.sha256, expected.sha256);
      assert.equal(artifact.mime, expected.mime);
      assert.equal(sha256(readFileSync(artifact.path)), expected.sha256, `${trap}: intact on disk`);
      assert.ok(artifact.path.startsWith(join(controlplane.dataDir, 'traces', result.trace_id)));
    }
    const stored = await audited(result.trace_id, 'artifact-stored');
    assert.deepEqual(
      stored.map((row) => [row.name, row.step, row.sha256]),
      [
        ['report.pdf', 1, site.expected.pdf.sha256],
        ['orders.csv', 2, site.expected.post.sha256],
        ['data.json', 3, site.expected.blob.sha256],
      ],
    );
    assert.equal(stored[0]?.source_url, `${site.url}/files/report.pdf`);
    const refused = await audited(result.trace_id, 'download-refused');
    assert.deepEqual(
      refused.map((row) => [row.name, row.refusal, row.step]),
      [
        ['tool.exe', 'type_not_allowed', 4],
        ['big.bin', 'file_too_large', 5],
      ],
    );
    assert.ok(
      recorded.requests.some((text) => text.includes('The download \\"report.pdf\\" finished')),
      'the model is told a download finished, with its name and size',
    );
    assert.deepEqual(leftovers(), [], 'the browser download directory is empty after the task');

    const base = await controlplane.serve();
    const listed = (await (
      await fetch(`${base}/v1/tasks/${result.trace_id}/artifacts`)
    ).json()) as {
      artifacts: { name: string; step: number; source_url: string }[];
    };
    assert.deepEqual(
      listed.artifacts.map((artifact) => [artifact.name, artifact.step]),
      [
        ['report.pdf', 1],
        ['orders.csv', 2],
        ['data.json', 3],
      ],
    );
    const file = await fetch(`${base}/v1/tasks/${result.trace_id}/artifacts/orders.csv`);
    assert.equal(file.status, 200);
    assert.equal(file.headers.get('content-type'), 'text/csv');
    assert.match(file.headers.get('content-disposition') ?? '', /^attachment/);
    assert.equal(sha256(new Uint8Array(await file.arrayBuffer())), site.expected.post.sha256);
  });

  it('denies every download of a tenant whose policy leaves downloads off, and audits it', async () => {
    const result = await run({ ...loopbackPrincipal, tenant: 'closed' });
    assert.equal(result.status, 'finished', JSON.stringify(result));
    assert.equal(result.artifacts, undefined);
    const refused = await audited(result.trace_id, 'download-refused');
    assert.deepEqual(
      refused.map((row) => row.refusal),
      ['downloads_off', 'downloads_off', 'downloads_off', 'downloads_off', 'downloads_off'],
    );
    assert.deepEqual(leftovers(), []);
  });

  it('links each file in the MCP result, and the client reads its bytes', async () => {
    const base = await controlplane.serve();
    const client = new Client({ name: 'downloads', version: '0.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    try {
      const result = await client.callTool({
        name: 'browser_run_task',
        arguments: { instruction: 'Download the files', start_url: `${site.url}/` },
      });
      const content = result.content as { type: string; uri?: string; name?: string }[];
      const links = content.filter((item) => item.type === 'resource_link');
      assert.deepEqual(
        links.map((link) => link.name),
        ['report.pdf', 'orders.csv', 'data.json'],
      );
      const read = await client.readResource({ uri: links[0]?.uri ?? '' });
      const [first] = read.contents as { blob?: string; mimeType?: string }[];
      assert.equal(first?.mimeType, 'application/pdf');
      assert.equal(sha256(Buffer.from(first?.blob ?? '', 'base64')), site.expected.pdf.sha256);
      const foreign = (links[0]?.uri ?? '').replace(
        /tasks\/[^/]+/,
        'tasks/00000000-0000-4000-8000-000000000000',
      );
      await assert.rejects(client.readResource({ uri: foreign ?? '' }), /no such artifact/);
    } finally {
      await client.close();
    }
  });
});
