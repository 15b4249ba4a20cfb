import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestJail, type TestJail } from '../jail-service/jail-harness.js';
import { requires } from '../support/capabilities.js';
import { readFrames } from './dashboard-multipart.js';

describe('jail-service GET /screencast (CDP Page.startScreencast)', requires('chromium'), () => {
  let jail: TestJail;
  before(async () => {
    jail = await startTestJail({ CLAWDIE_JAIL_VIEWPORT: '800x600' });
  });
  after(async () => {
    await jail?.close();
  });

  it('refuses a request without the bearer token', async () => {
    const response = await jail.client.fetch('/screencast', {}, null);
    assert.equal(response.status, 401);
  });

  it('is listed among the tools', async () => {
    const tools = (await (await jail.client.fetch('/tools')).json()) as {
      tools: { name: string; namespace: string }[];
    };
    const screencast = tools.tools.find((tool) => tool.name === 'screencast');
    assert.equal(screencast?.namespace, 'stream');
  });

  it('streams JPEG frames at 2 fps or more, also from a still page, while actions still run', async () => {
    await jail.client.run([{ type: 'navigate', url: 'data:text/html,<h1>still</h1>' }]);
    const response = await jail.client.fetch('/screencast?fps=4&quality=50');
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^multipart\/x-mixed-replace/);
    const [frames, results] = await Promise.all([
      readFrames(response, 2500),
      jail.client.run([{ type: 'navigate', url: 'data:text/html,<h1>moved</h1>' }]),
    ]);
    assert.equal(results.results[0]?.status, 'ok');
    assert.ok(frames.length >= 5, `expected ≥ 5 frames in 2.5 s, got ${frames.length}`);
    for (const frame of frames) assert.deepEqual([...frame.subarray(0, 2)], [0xff, 0xd8]);
    // The page is still usable after the viewer left.
    const shot = await jail.client.screenshot();
    assert.equal(shot.response.status, 200);
  });

  it('rejects a bad query with 400', async () => {
    const response = await jail.client.fetch('/screencast?fps=0');
    assert.equal(response.status, 400);
  });
});
