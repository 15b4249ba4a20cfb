// Auth, bad input, failures and a wedged renderer against a real jail-service on loopback.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { errorBodySchema, healthResponseSchema, toolsResponseSchema } from '@clawdie/kit/jail-api';
import { actionSchema } from '../../kit/src/jail-api/actions.js';
import { requires } from '../support/capabilities.js';
import { refusedUrl, type StaticSite, startStaticSite } from '../support/static-site.js';
import { fixtureRoutes } from './fixture-pages.js';
import { type JailClient, startTestJail, type TestJail, TOKEN } from './jail-harness.js';

const ACTION_TIMEOUT_MS = 1500;

describe('jail-service robustness (real Chromium)', requires('chromium'), () => {
  let site: StaticSite;
  let jail: TestJail;
  let client: JailClient;
  let refused: string;

  before(async () => {
    refused = await refusedUrl();
    site = await startStaticSite(fixtureRoutes(refused));
    jail = await startTestJail({
      CLAWDIE_JAIL_ACTION_TIMEOUT_MS: String(ACTION_TIMEOUT_MS),
      CLAWDIE_JAIL_NAVIGATION_TIMEOUT_MS: '3000',
    });
    client = jail.client;
  });
  after(async () => {
    await jail?.close();
    await site?.close();
  });

  it('treats navigate_back without history as a no-op', async () => {
    const response = await client.run([{ type: 'navigate_back' }]);
    assert.equal(response.results[0]?.status, 'ok');
    assert.equal(response.results[0]?.navigated, false);
    assert.equal(response.state.url, 'about:blank');
  });

  it('requires the bearer token on every route', async () => {
    const routes: Array<[string, string]> = [
      ['GET', '/health'],
      ['GET', '/screenshot'],
      ['POST', '/actions'],
      ['GET', '/state'],
      ['GET', '/elements'],
      ['GET', '/tools'],
      ['GET', '/no-such-route'],
    ];
    for (const [method, path] of routes) {
      for (const token of [null, 'wrong-token', `${TOKEN}-and-more`]) {
        const init: RequestInit = { method };
        if (method === 'POST') init.body = JSON.stringify({ actions: [{ type: 'wait', ms: 1 }] });
        const response = await client.fetch(path, init, token);
        assert.equal(response.status, 401, `${method} ${path} with ${token}`);
        assert.match(response.headers.get('content-type') ?? '', /application\/json/);
        const body = errorBodySchema.parse(await response.json());
        assert.equal(body.error.code, 'UNAUTHORIZED');
      }
    }
  });

  it('answers /health and lists both tool namespaces with JSON schemas', async () => {
    const health = healthResponseSchema.parse(await (await client.fetch('/health')).json());
    assert.equal(health.status, 'ok');
    assert.equal(health.browser.connected, true);
    assert.match(health.browser.version ?? '', /Chrom/);
    const { tools } = toolsResponseSchema.parse(await (await client.fetch('/tools')).json());
    const names = (namespace: string) =>
      tools.filter((tool) => tool.namespace === namespace).map((tool) => tool.name);
    assert.deepEqual(names('data_collection'), ['screenshot', 'state', 'elements', 'landing']);
    const actionTypes = actionSchema.options.map((option) => option.shape.type.value).sort();
    assert.deepEqual(names('action').sort(), actionTypes);
    for (const tool of tools) {
      assert.equal(tool.input_schema.type, 'object', tool.name);
      assert.ok(tool.description.length > 0);
      assert.ok(tool.timeout_ms >= ACTION_TIMEOUT_MS, tool.name);
    }
    const click = tools.find((tool) => tool.name === 'click');
    assert.deepEqual(click?.input_schema.required, ['type', 'x', 'y']);
  });

  it('rejects bad requests with 400 JSON bodies and keeps the tab usable', async () => {
    assert.equal((await client.run([{ type: 'navigate', url: `${site.url}/a` }])).state.title, 'A');
    const cases: Array<[unknown, string, RegExp]> = [
      ['{"actions": [', 'BAD_REQUEST', /not valid JSON/],
      [{ actions: [] }, 'BAD_REQUEST', /actions/],
      [{ actions: [{ type: 'click', x: 1, y: 1, force: true }] }, 'BAD_REQUEST', /actions\.0/],
      [{ actions: [{ type: 'teleport', x: 1, y: 1 }] }, 'BAD_REQUEST', /actions\.0/],
      [{ actions: [{ type: 'wait', ms: 1 }], extra: 1 }, 'BAD_REQUEST', /extra|Unrecognized/],
      [
        {
          actions: [
            { type: 'navigate', url: `${site.url}/b` },
            { type: 'click', x: 1280, y: 5 },
          ],
        },
        'OUT_OF_RANGE',
        /action 1 \(click\)/,
      ],
      [
        {
          actions: [
            { type: 'navigate', url: `${site.url}/b` },
            { type: 'scroll', x: 5, y: 800, direction: 'up' },
          ],
        },
        'OUT_OF_RANGE',
        /action 1 \(scroll\)/,
      ],
      [
        {
          actions: [
            { type: 'navigate', url: `${site.url}/b` },
            { type: 'hotkey', keys: ['ctrl', 'hyper'] },
          ],
        },
        'UNKNOWN_KEY',
        /hyper/,
      ],
    ];
    for (const [body, code, message] of cases) {
      const reply = await client.post(body);
      assert.equal(reply.status, 400, JSON.stringify(body));
      const parsed = errorBodySchema.parse(reply.body);
      assert.equal(parsed.error.code, code, JSON.stringify(reply.body));
      assert.match(JSON.stringify(parsed.error), message);
      if (code === 'BAD_REQUEST' && typeof body !== 'string')
        assert.ok(parsed.error.issues?.length);
    }
    for (const query of ['?quality=0', '?quality=abc', '?size=2']) {
      const response = await client.fetch(`/screenshot${query}`);
      assert.equal(response.status, 400, query);
      assert.equal(errorBodySchema.parse(await response.json()).error.code, 'BAD_REQUEST');
    }
    // Nothing of the rejected batches ran (no navigation to /b) and the tab still works.
    const state = await client.state();
    assert.equal(state.url, `${site.url}/a`);
    assert.equal(state.title, 'A');
  });

  it('reports a failed navigation as NAVIGATION_FAILED, skips the rest, keeps the tab', async () => {
    const response = await client.run([
      { type: 'navigate', url: `${site.url}/a` },
      { type: 'navigate', url: refused },
      { type: 'navigate', url: `${site.url}/b` },
    ]);
    assert.deepEqual(
      response.results.map((result) => result.status),
      ['ok', 'error', 'skipped'],
    );
    assert.equal(response.results[1]?.error?.code, 'NAVIGATION_FAILED');
    assert.equal(response.results[2]?.duration_ms, 0);
    // A scheme-less URL gets https://, which a plain-HTTP server cannot answer.
    const host = new URL(site.url).host;
    const https = await client.run([{ type: 'open_url', url: `${host}/a` }]);
    assert.equal(https.results[0]?.error?.code, 'NAVIGATION_FAILED');
    assert.match(https.results[0]?.error?.message ?? '', new RegExp(`https://${host}/a`));
    assert.equal((await client.run([{ type: 'navigate', url: `${site.url}/b` }])).state.title, 'B');
  });

  it('reports a crashed page as degraded until a navigation replaces the renderer', async () => {
    const crash = await client.run([{ type: 'navigate', url: 'chrome://crash' }]);
    assert.equal(crash.results[0]?.status, 'error');
    const shot = await client.screenshot();
    assert.equal(shot.response.status, 503);
    assert.equal(JSON.parse(shot.jpeg.toString('utf8')).error.code, 'BROWSER_UNAVAILABLE');
    const degraded = await client.fetch('/health');
    assert.equal(degraded.status, 503);
    assert.equal(healthResponseSchema.parse(await degraded.json()).status, 'degraded');
    const back = await client.run([{ type: 'navigate', url: `${site.url}/a` }]);
    assert.equal(back.state.title, 'A');
    const healthy = await client.fetch('/health');
    assert.equal(healthy.status, 200);
    assert.equal(healthResponseSchema.parse(await healthy.json()).status, 'ok');
  });

  it('times out a click whose handler never returns, and the service recovers', async () => {
    await client.run([{ type: 'navigate', url: `${site.url}/hang` }]);
    const started = performance.now();
    const batch = client.run([
      { type: 'click', x: 100, y: 50 },
      { type: 'navigate', url: `${site.url}/a` },
    ]);
    // While the renderer spins, /health still answers at once.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const healthStarted = performance.now();
    const health = await client.fetch('/health');
    assert.equal(health.status, 200);
    assert.ok(performance.now() - healthStarted < 500);
    const response = await batch;
    const elapsed = performance.now() - started;
    assert.ok(
      elapsed >= ACTION_TIMEOUT_MS - 50 && elapsed < ACTION_TIMEOUT_MS + 3000,
      `${elapsed} ms`,
    );
    assert.equal(response.results[0]?.status, 'error');
    assert.equal(response.results[0]?.error?.code, 'TOOL_TIMEOUT');
    assert.equal(response.results[1]?.status, 'skipped');
    assert.equal(response.state.url, `${site.url}/hang`);
    // The page was interrupted: reads and screenshots work again, and so do actions.
    const state = await client.state();
    assert.equal(state.title, 'hang');
    const shot = await client.screenshot();
    assert.equal(shot.response.status, 200);
    assert.equal(shot.response.headers.get('content-type'), 'image/jpeg');
    assert.ok(shot.jpeg.length > 100);
    assert.equal((await client.run([{ type: 'navigate', url: `${site.url}/a` }])).state.title, 'A');
  });

  it('times out reads while the page spins by itself, then reads again', async () => {
    // The page spins when the test says so: it polls /go and spins once /go says `spin`. A page
    // that spun on a timer after load could start while the navigate's own batch still read the
    // page's state; that read then timed out and stopped the spin (the service's rescue), and the
    // reads here never met it (seen on a busy CI host).
    site.set('/go', 'wait');
    site.set(
      '/spin-on-go',
      '<title>spin</title><script>onload = function poll() { fetch("/go").then((r) => r.text())' +
        '.then((word) => (word === "spin" ? (() => { for (;;) {} })() : setTimeout(poll, 20))); };' +
        '</script>',
    );
    // Read until a read times out (bounded to 15 s: a page that never spins fails the test).
    const untilTimedOut = async <T extends { status: number }>(read: () => Promise<T>) => {
      const deadline = Date.now() + 15_000;
      let last = await read();
      while (Date.now() < deadline && last.status !== 504) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        last = await read();
      }
      return last;
    };
    const spinAfterLoad = async () => {
      site.set('/go', 'wait');
      const loaded = await client.run([{ type: 'navigate', url: `${site.url}/spin-on-go` }]);
      assert.equal(loaded.results[0]?.status, 'ok', JSON.stringify(loaded.results[0]));
      assert.equal(loaded.state.title, 'spin', 'the page answers before it is told to spin');
      site.set('/go', 'spin');
    };
    await spinAfterLoad();
    const response = await untilTimedOut(() => client.fetch('/state'));
    assert.equal(response.status, 504, response.status === 504 ? '' : await response.text());
    assert.equal(errorBodySchema.parse(await response.json()).error.code, 'TOOL_TIMEOUT');
    assert.equal((await client.state()).title, 'spin');
    // The same for a screenshot, which waits for a frame the spinning renderer never produces.
    await spinAfterLoad();
    const stuck = await untilTimedOut(async () => {
      const shot = await client.screenshot();
      return { status: shot.response.status, jpeg: shot.jpeg };
    });
    assert.equal(stuck.status, 504);
    assert.equal(JSON.parse(stuck.jpeg.toString('utf8')).error.code, 'TOOL_TIMEOUT');
    const shot = await client.screenshot();
    assert.equal(shot.response.status, 200);
    assert.equal(shot.response.headers.get('content-type'), 'image/jpeg');
  });
});
