// Issue 12, found item 3: one 300 MB POST to /dashboard/login (no auth needed) took the
// controlplane from 115 MB to 1.36 GB and stalled /health for 12 s; the same on /v1/tasks. Every
// route now refuses a body over CLAWDIE_MAX_BODY_BYTES (1 MiB) with 413 JSON, without reading it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createReplayModel } from '../../controlplane/src/agent/model/replay-model.js';
import { loadConfig } from '../../controlplane/src/config.js';
import { createTestControlplane } from '../support/controlplane.js';
import { pollLatency, sampleMemory, streamBody } from './support/stream-body.js';

const MiB = 1024 * 1024;
const HUGE = 300 * MiB;

// `npm start`'s composition root; the API without auth (as CLAWDIE_AUTH_REQUIRED=false), the
// dashboard behind the admin token, the shipped body bound.
const controlplane = await createTestControlplane({
  role: 'server',
  model: createReplayModel(["Action: finished(content='ok')"]),
  env: { CLAWDIE_ADMIN_TOKEN: 'dashboard-admin-token-0123456789', CLAWDIE_MAX_STEPS: '5' },
});
const { app } = controlplane;
let base = '';
before(async () => {
  base = await controlplane.serve();
});
after(() => controlplane.close());

async function hugeUpload(path: string, chunked: boolean, contentType: string) {
  global.gc?.();
  const memory = sampleMemory();
  const health = pollLatency(`${base}/health`);
  const started = performance.now();
  const outcome = await streamBody(`${base}${path}`, { totalBytes: HUGE, chunked, contentType });
  const ms = performance.now() - started;
  const latency = await health.stop();
  const grown = memory.stop();
  return { outcome, ms, latency, grown };
}

describe('request body limit', () => {
  for (const [path, chunked, contentType] of [
    ['/dashboard/login', true, 'application/x-www-form-urlencoded'],
    ['/dashboard/login', false, 'application/x-www-form-urlencoded'],
    ['/v1/tasks', true, 'application/json'],
    ['/v1/tasks', false, 'application/json'],
  ] as const) {
    it(`refuses a 300 MB ${chunked ? 'chunked' : 'Content-Length'} POST to ${path} with 413, memory flat and /health fast`, async () => {
      const { outcome, ms, latency, grown } = await hugeUpload(path, chunked, contentType);
      const figures = `sent ${(outcome.sentBytes / MiB).toFixed(1)} MiB in ${ms.toFixed(0)} ms, rss +${(grown.peakRssGrowth / MiB).toFixed(1)} MiB, heap+buffers +${(grown.peakHeapGrowth / MiB).toFixed(1)} MiB, /health max ${latency.maxMs.toFixed(0)} ms over ${latency.count}`;
      console.log(`${path} ${chunked ? 'chunked' : 'content-length'}: ${figures}`);
      assert.equal(outcome.status, 413, `${figures}; error ${outcome.error}`);
      const body = JSON.parse(outcome.body) as { error: { code: string; message: string } };
      assert.equal(body.error.code, 'BODY_TOO_LARGE');
      assert.match(body.error.message, /larger than 1048576 bytes/);
      assert.ok(grown.peakHeapGrowth < 64 * MiB, figures);
      assert.ok(grown.peakRssGrowth < 128 * MiB, figures);
      assert.ok(outcome.sentBytes < 100 * MiB, `the server kept reading: ${figures}`);
      assert.equal(latency.failures, 0, figures);
      assert.ok(latency.maxMs < 1000, figures);
    });
  }

  it('lets a body at the limit through and answers 413 JSON one byte over it (in-process)', async () => {
    const post = (bytes: number) =>
      app.request('/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(bytes) },
        body: ' '.repeat(bytes),
      });
    assert.notEqual((await post(MiB)).status, 413);
    const over = await post(MiB + 1);
    assert.equal(over.status, 413);
    assert.equal(over.headers.get('connection'), 'close');
    assert.equal(((await over.json()) as { error: { code: string } }).error.code, 'BODY_TOO_LARGE');
  });

  it('closes the connection after answering without reading a body, so the next request gets a fresh one', async () => {
    // Unauthenticated 401 (auth is off here, so use a route that takes no body): a 404.
    const answered = await fetch(`${base}/v1/nothing-here`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ filler: 'x'.repeat(400_000) }),
    });
    assert.equal(answered.status, 404);
    assert.equal(answered.headers.get('connection'), 'close');
    await answered.text();
    for (let i = 0; i < 5; i++) assert.equal((await fetch(`${base}/health`)).status, 200);
  });

  it('answers a malformed form body on the dashboard login with 400, not 500', async () => {
    const response = await app.request('/dashboard/login', {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      body: 'token=abc',
    });
    assert.equal(response.status, 400);
  });

  it('reads the bound from CLAWDIE_MAX_BODY_BYTES (default 1 MiB)', () => {
    assert.equal(loadConfig({}).maxBodyBytes, MiB);
    assert.equal(loadConfig({ CLAWDIE_MAX_BODY_BYTES: '4096' }).maxBodyBytes, 4096);
    assert.throws(() => loadConfig({ CLAWDIE_MAX_BODY_BYTES: '10' }), /CLAWDIE_MAX_BODY_BYTES/);
  });
});
