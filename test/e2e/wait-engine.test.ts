import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Hono } from 'hono';
import type { BrowserOperator } from '../../controlplane/src/browser/operator/browser-operator.js';
import { createClawdieBrowserOperator } from '../../controlplane/src/browser/operator/clawdie-browser-operator.js';
import {
  type LocalJailService,
  startLocalJailService,
} from '../../controlplane/src/browser/provider/local-jail-service.js';
import {
  createJailPageProbe,
  operatorFrames,
} from '../../controlplane/src/browser/wait/jail-page-probe.js';
import { WaitEngine } from '../../controlplane/src/browser/wait/wait-engine.js';
import type { JobTarget } from '../../controlplane/src/browser/wait/wait-job.js';
import { createWaitService } from '../../controlplane/src/browser/wait/wait-service.js';
import type { VisualJudge } from '../../controlplane/src/browser/wait/wait-types.js';
import { systemClock } from '../../controlplane/src/clock.js';
import { createErrorHandler } from '../../controlplane/src/ingress/http/error-handler.js';
import { mountRouteTable } from '../../controlplane/src/ingress/http/mount-routes.js';
import type { RouteDeps } from '../../controlplane/src/ingress/http/route-types.js';
import { waitRoutes } from '../../controlplane/src/ingress/http/wait-routes.js';
import { requires } from '../support/capabilities.js';
import { silentLogger } from '../support/silent-logger.js';
import { htmlPage, type StaticSite, startStaticSite } from '../support/static-site.js';
import { testImages } from '../support/test-images.js';
import { testLauncher } from '../support/test-launcher.js';

const delayedText = (ms: number, label: string) =>
  htmlPage(
    'waiting',
    `<p>Preparing your download…</p><div id="slot"></div>
<script>setTimeout(() => { document.getElementById('slot').innerHTML = '<button>${label}</button>'; }, ${ms});</script>`,
  );

const iconPage = htmlPage(
  'icon',
  `<div style="height:300px;background:#f4f4f4">dashboard</div>
<div id="icon" style="position:absolute;left:900px;top:12px;width:16px;height:16px;background:#c0392b"></div>
<script>setTimeout(() => { document.getElementById('icon').style.background = '#27ae60'; }, 2000);</script>`,
);

describe('wait engine on a real browser', requires('chromium'), () => {
  let site: StaticSite;
  let jail: LocalJailService;
  let operator: BrowserOperator;
  let target: JobTarget;

  before(async () => {
    site = await startStaticSite({
      '/later': delayedText(3000, 'Download ready'),
      '/icon': iconPage,
    });
    jail = await startLocalJailService({
      egressProxyUrl: null,
      launcher: testLauncher,
      env: { ...process.env },
      logger: silentLogger,
    });
    operator = createClawdieBrowserOperator({
      url: jail.url,
      token: jail.token,
      timeoutMs: 20_000,
    });
    target = { frames: operatorFrames(operator, 'jail'), probe: createJailPageProbe(jail) };
  });
  after(async () => {
    await jail?.stop();
    await site?.close();
  });

  /** Opens `path`; its page's timers start somewhere between `started` and `loaded`. */
  const open = async (path: string) => {
    const started = performance.now();
    const response = await operator.execute([{ type: 'navigate', url: `${site.url}${path}` }]);
    assert.equal(response.results[0]?.status, 'ok');
    return { started, loaded: performance.now() };
  };

  it('resolves text that appears after 3 s within one poll interval', async () => {
    const engine = new WaitEngine({ images: testImages, clock: systemClock });
    const { started, loaded } = await open('/later');
    const pollMs = 500;
    const outcome = await engine.start({
      conditions: [{ type: 'text_contains', text: 'download ready' }],
      timeoutMs: 10_000,
      target,
      settings: { pollMs },
    }).outcome;
    const resolvedAt = performance.now();
    assert.equal(outcome.status, 'resolved', outcome.detail);
    // The text appears 3 s after the page's script ran: between started + 3 s and loaded + 3 s.
    assert.ok(resolvedAt - started >= 3000, `${resolvedAt - started}`);
    // One poll interval, plus the probe round trip (two jail-service reads).
    assert.ok(
      resolvedAt - loaded <= 3000 + pollMs + 150,
      `resolved ${Math.round(resolvedAt - loaded - 3000)} ms after the text appeared at the latest`,
    );
  });

  it('sees a 16×16 icon change in real frames and calls the model again only then', async () => {
    let calls = 0;
    const judge: VisualJudge = {
      async judge(request) {
        calls += 1;
        return calls >= 2 && request.frames.length === 2
          ? { decision: 'resolved', reason: 'icon turned green' }
          : { decision: 'watching', reason: 'icon is red' };
      },
    };
    const engine = new WaitEngine({ images: testImages, clock: systemClock, judge });
    const { loaded: loadedAt } = await open('/icon');
    const outcome = await engine.start({
      conditions: [{ type: 'visual', description: 'the status icon is green' }],
      timeoutMs: 12_000,
      target,
    }).outcome;
    assert.equal(outcome.status, 'resolved', outcome.detail);
    assert.equal(calls, 2, 'one evaluation at the start, one after the change; none in between');
    assert.ok(outcome.skippedEvaluations >= 1, 'the gate skipped the unchanged frames');
    const sinceLoad = performance.now() - loadedAt;
    assert.ok(sinceLoad < 2000 + 3000 + 1000, `${sinceLoad}`);
  });

  it('settles 20 concurrent waits (REST, blocking and polled) exactly once each', async () => {
    const engine = new WaitEngine({ images: testImages, clock: systemClock });
    const service = createWaitService(engine, target);
    const app = new Hono().onError(createErrorHandler(silentLogger));
    mountRouteTable(app, waitRoutes, { waits: service } as unknown as RouteDeps);
    await open('/later');
    const post = (body: unknown) =>
      app.request('/v1/waits', {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
      });
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        post({
          conditions: [{ type: 'text_contains', text: 'Download ready' }],
          timeout_ms: 10_000,
          block: i % 2 === 0,
        }),
      ),
    );
    const bodies = (await Promise.all(responses.map((r) => r.json()))) as {
      wait_id: string;
      status: string;
    }[];
    assert.deepEqual(
      responses.map((r) => r.status),
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? 200 : 202)),
    );
    const ids = bodies.map((b) => b.wait_id);
    assert.equal(new Set(ids).size, 20);
    const deadline = performance.now() + 10_000;
    let views: { status: string }[] = [];
    while (performance.now() < deadline) {
      views = await Promise.all(
        ids.map(async (id) => (await app.request(`/v1/waits/${id}`)).json()),
      );
      if (views.every((v) => v.status !== 'watching')) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.ok(
      views.every((v) => v.status === 'resolved'),
      JSON.stringify(views),
    );
    for (const id of ids)
      assert.equal((await app.request(`/v1/waits/${id}`, { method: 'DELETE' })).status, 409);
    assert.equal(engine.active, 0);
    const bad = await post({ conditions: [{ type: 'telepathy' }] });
    assert.equal(bad.status, 400);
  });
});
