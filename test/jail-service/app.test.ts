// The HTTP layer and the tool layer over a fake PageDriver, through app.request (no sockets).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  actionsResponseSchema,
  errorBodySchema,
  healthResponseSchema,
  toolsResponseSchema,
} from '@clawdie/kit/jail-api';
import { createApp } from '../../jail-service/src/app.js';
import { createToolRegistry } from '../../jail-service/src/tools/registry.js';
import { silentLogger } from '../support/silent-logger.js';
import { createFakePageDriver, type FakePageDriverOptions } from './fake-page-driver.js';

const token = 'app-test-token';

function setup(options: FakePageDriverOptions = {}, actionTimeoutMs = 1000) {
  const driver = createFakePageDriver(options);
  const tools = createToolRegistry({
    driver,
    logger: silentLogger,
    actionTimeoutMs,
    navigationTimeoutMs: 1000,
    screenshotQuality: 80,
  });
  const app = createApp({ tools, driver, config: { token }, logger: silentLogger });
  const request = (path: string, init: RequestInit = {}, auth: string | null = token) => {
    const headers = new Headers(init.headers);
    if (auth !== null) headers.set('authorization', auth.includes(' ') ? auth : `Bearer ${auth}`);
    return app.request(path, { ...init, headers });
  };
  const post = (body: unknown) =>
    request('/actions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  return { driver, app, request, post };
}

describe('jail-service app (fake page driver)', () => {
  it('answers /health and /tools with contract bodies', async () => {
    const { request } = setup();
    const health = healthResponseSchema.parse(await (await request('/health')).json());
    assert.equal(health.status, 'ok');
    assert.deepEqual(health.viewport, { width: 800, height: 600 });
    const tools = toolsResponseSchema.parse(await (await request('/tools')).json());
    assert.equal(tools.tools.length, 19);
  });

  it('rejects a wrong scheme, a wrong token and a missing header with 401 JSON', async () => {
    const { request } = setup();
    for (const auth of [null, 'Basic YTpi', 'Bearer nope', `Bearer ${token}x`, `Bearer  `]) {
      const response = await request('/health', {}, auth);
      assert.equal(response.status, 401, String(auth));
      assert.equal(response.headers.get('www-authenticate'), 'Bearer');
      const body = errorBodySchema.parse(await response.json());
      assert.equal(body.error.code, 'UNAUTHORIZED');
    }
    assert.equal((await request('/health', {}, `bearer ${token}`)).status, 200);
  });

  it('validates the whole batch before running any action', async () => {
    const { driver, post } = setup();
    const response = await post({
      actions: [
        { type: 'click', x: 1, y: 1 },
        { type: 'click', x: 1, y: 600 },
      ],
    });
    assert.equal(response.status, 400);
    assert.equal(errorBodySchema.parse(await response.json()).error.code, 'OUT_OF_RANGE');
    assert.deepEqual(driver.performed, []);
  });

  it('lists zod issues with paths for a malformed batch', async () => {
    const { post } = setup();
    const response = await post({ actions: [{ type: 'click', x: 1, y: 1, button: 'left' }] });
    assert.equal(response.status, 400);
    const body = errorBodySchema.parse(await response.json());
    assert.equal(body.error.code, 'BAD_REQUEST');
    assert.ok(body.error.issues?.some((issue) => issue.path.startsWith('actions.0')));
  });

  it('stops at the first failing action and reports the rest as skipped', async () => {
    const { driver, post } = setup({
      failOn: (step) => (step.kind === 'wheel' ? new Error('wheel broke') : undefined),
    });
    const response = await post({
      actions: [
        { type: 'press', key: 'tab' },
        { type: 'scroll', x: 1, y: 1, direction: 'up' },
        { type: 'click', x: 1, y: 1 },
        { type: 'navigate', url: 'example.com' },
      ],
    });
    assert.equal(response.status, 200);
    const body = actionsResponseSchema.parse(await response.json());
    assert.deepEqual(
      body.results.map((result) => [result.type, result.status]),
      [
        ['press', 'ok'],
        ['scroll', 'error'],
        ['click', 'skipped'],
        ['navigate', 'skipped'],
      ],
    );
    assert.deepEqual(body.results[1]?.error, { code: 'ACTION_FAILED', message: 'wheel broke' });
    assert.equal(driver.performed.length, 2);
    assert.equal(driver.navigations.length, 0);
    assert.equal(body.state.title, 'fake');
  });

  it('times a hung action out with TOOL_TIMEOUT, interrupts the page and skips the rest', async () => {
    const { driver, post, request } = setup({ hangOn: (step) => step.kind === 'key-down' });
    const started = performance.now();
    const response = await post({
      actions: [
        { type: 'hotkey', keys: ['ctrl', 'a'] },
        { type: 'click', x: 1, y: 1 },
      ],
      timeout_ms: 200,
    });
    assert.ok(performance.now() - started < 2000);
    const body = actionsResponseSchema.parse(await response.json());
    assert.equal(body.results[0]?.status, 'error');
    assert.equal(body.results[0]?.error?.code, 'TOOL_TIMEOUT');
    assert.equal(body.results[1]?.status, 'skipped');
    assert.equal(driver.interrupts, 1);
    assert.equal((await request('/state')).status, 200);
  });

  it('adds https:// to scheme-less navigate URLs', async () => {
    const { driver, post } = setup();
    const body = actionsResponseSchema.parse(
      await (await post({ actions: [{ type: 'open_url', url: 'example.com/x' }] })).json(),
    );
    assert.equal(body.results[0]?.navigated, true);
    assert.deepEqual(driver.navigations, ['https://example.com/x']);
  });

  it('returns 404 JSON for unknown routes and 413 for huge bodies', async () => {
    const { request, post } = setup();
    const missing = await request('/nope');
    assert.equal(missing.status, 404);
    assert.equal(errorBodySchema.parse(await missing.json()).error.code, 'NOT_FOUND');
    const huge = await post(
      JSON.stringify({ actions: [{ type: 'type', text: 'x'.repeat(2_000_000) }] }),
    );
    assert.equal(huge.status, 413);
    assert.equal(errorBodySchema.parse(await huge.json()).error.code, 'BAD_REQUEST');
  });

  it('checks an action’s expect against a fresh landing: LANDING_CHANGED and nothing dispatched', async () => {
    const { driver, post } = setup();
    const landed = (url: string) => ({
      url: 'http://shop.test/',
      document_id: 'doc-1',
      target: {
        frames: [{ url: 'http://shop.test/', origin: 'http://shop.test' }],
        element: { tag: 'a', input_type: null, autocomplete: null, field: 'other' as const },
        destination: { kind: 'link' as const, url, method: 'GET', new_window: false },
      },
      source: null,
    });
    driver.landings.push(landed('http://pay.test/'));
    const expect = {
      document_id: 'doc-1',
      origins: ['http://shop.test'],
      destination: 'http://shop.test/cart',
    };
    const refused = actionsResponseSchema.parse(
      await (await post({ actions: [{ type: 'click', x: 10, y: 10, expect }] })).json(),
    );
    assert.equal(refused.results[0]?.error?.code, 'LANDING_CHANGED');
    assert.equal(driver.performed.length, 0);
    driver.landings.splice(0, 1, landed('http://shop.test/cart'));
    const ran = actionsResponseSchema.parse(
      await (await post({ actions: [{ type: 'click', x: 10, y: 10, expect }] })).json(),
    );
    assert.equal(ran.results[0]?.status, 'ok');
    assert.equal(driver.performed.length, 1);
  });

  it('types a secret through the driver’s one-step insertion, keying only the trailing Enter', async () => {
    const { driver, post } = setup();
    const secret = { origins: ['http://bank.test'], fields: ['password'], autocomplete: [] };
    const reply = await post({ actions: [{ type: 'type', text: 's3cret\n', secret }] });
    assert.equal(reply.status, 200);
    assert.deepEqual(driver.secrets, ['s3cret']);
    assert.deepEqual(driver.performed, [
      [
        { kind: 'key-down', key: 'Enter' },
        { kind: 'key-up', key: 'Enter' },
      ],
    ]);
  });

  it('serves POST /landing (400 outside the viewport) and POST /reset', async () => {
    const { driver, request } = setup();
    const landing = (action: unknown) =>
      request('/landing', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ action }),
      });
    assert.equal((await landing({ type: 'click', x: 10, y: 10 })).status, 200);
    assert.equal((await landing({ type: 'click', x: 900, y: 10 })).status, 400);
    assert.equal((await request('/reset', { method: 'POST' })).status, 200);
    assert.equal(driver.resets, 1);
  });
});
