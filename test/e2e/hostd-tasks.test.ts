// The controlplane with hostd for real (root): every task runs in its own Linux clone made by the
// real driver behind hostd's HTTP API, reached through HostdClient exactly as `npm start` does with
// CLAWDIE_HOSTD_URL. Clones are host-global, so this file holds the host lock while it runs.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createAdaptorServer } from '@hono/node-server';
import { runDemo } from '../../controlplane/src/cli/demo-command.js';
import { loadConfig } from '../../controlplane/src/config.js';
import { demoTask } from '../../controlplane/src/demo/demo-site-server.js';
import { screencastOf } from '../../controlplane/src/jails/task-browsers.js';
import { type Platform, startPlatform } from '../../controlplane/src/platform.js';
import { mjpegParts } from '../../controlplane/src/recording/mjpeg-parts.js';
import { createBrowserWaitService } from '../../controlplane/src/wait/browser-wait-service.js';
import { createApp as createHostdApp } from '../../hostd/src/app.js';
import { CloneManager } from '../../hostd/src/clones/clone-manager.js';
import { acquireHostLock } from '../hostd/support/host-lock.js';
import {
  createTestDriver,
  hostLeftovers,
  linuxDriverMissing,
} from '../hostd/support/linux-harness.js';
import { createPerTaskScriptModel } from '../support/per-task-script-model.js';
import { silentLogger } from '../support/silent-logger.js';

const HOSTD_TOKEN = 'hostd-e2e-token-0123456789';
const missing = linuxDriverMissing();

/** Leftovers can take a moment to vanish after the last kill (process reaping). */
async function settledLeftovers(): Promise<string[]> {
  for (let attempt = 0; ; attempt += 1) {
    const left = hostLeftovers();
    if (left.length === 0 || attempt >= 20) return left;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function serve(fetch: (request: Request) => Response | Promise<Response>) {
  const server = createAdaptorServer({ fetch }) as Server;
  return new Promise<{ server: Server; url: string }>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    ),
  );
}

if (missing) {
  console.error(`SKIP controlplane-with-hostd tests: ${missing}`);
  if (process.env.CI) throw new Error(`the hostd e2e tests cannot run in CI: ${missing}`);
} else {
  describe('controlplane tasks in hostd clones (real Linux driver)', () => {
    let release: () => void;
    let manager: CloneManager;
    let hostd: { server: Server; url: string };
    let platform: Platform;
    let dataDir: string;

    before(async () => {
      release = await acquireHostLock();
      const driver = createTestDriver();
      manager = new CloneManager({
        driver,
        defaultLimits: { memoryMb: 2048, pids: 1024, cpuPercent: 200 },
        defaultDisplay: false,
        proxyPort: 3128,
        poolSize: 0,
        startTimeoutMs: 30_000,
      });
      await manager.reconcile();
      hostd = await serve(createHostdApp({ token: HOSTD_TOKEN, manager, driver }).fetch);
      dataDir = mkdtempSync(join(tmpdir(), 'clawdie-hostd-e2e-'));
      const config = loadConfig({
        CLAWDIE_DATA_DIR: dataDir,
        CLAWDIE_HOSTD_URL: hostd.url,
        CLAWDIE_HOSTD_TOKEN: HOSTD_TOKEN,
        CLAWDIE_HOSTD_CONCURRENCY: '2',
        CLAWDIE_LOG_LEVEL: 'silent',
      });
      platform = await startPlatform(config, silentLogger, {});
    });

    after(async () => {
      await platform?.close();
      hostd?.server.closeAllConnections();
      hostd?.server.close();
      await manager?.close();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
      release?.();
    });

    const auditOf = (taskId: string) =>
      platform.audit
        .list({ taskId, limit: 1000 })
        .map((row) => ({ type: row.type, data: row.data }));

    it('a restarted controlplane destroys the clones its crashed predecessor left on hostd', async () => {
      const orphan = await manager.create({ taskId: 'crashed-task', allowedDomains: [] });
      const again = await startPlatform(platform.config, silentLogger, {});
      await again.close();
      assert.deepEqual(await manager.list(), []);
      const destroyed = platform.audit
        .list({ taskId: 'crashed-task', limit: 10 })
        .find((row) => row.type === 'clone-destroyed');
      assert.equal(destroyed?.data.clone, orphan.name);
      assert.equal(destroyed?.data.reason, 'orphaned by a controlplane restart');
    });

    it('describes hostd as the browser source and keeps no shared browser', () => {
      assert.equal(platform.browsers.local, null);
      assert.match(platform.browsers.description, /^hostd at .* a fresh clone per task, 2 at once/);
    });

    it('runs two demo tasks at once, each in its own clone, and destroys both clones verified', async () => {
      const [first, second] = await Promise.all([runDemo(platform), runDemo(platform)]);
      const clones = new Set<string>();
      for (const { result } of [first, second]) {
        assert.equal(result.status, 'finished', JSON.stringify(result));
        assert.equal(result.summary, demoTask.expectedValue);
        const events = auditOf(result.trace_id);
        const created = events.find((event) => event.type === 'clone-created');
        const destroyed = events.find((event) => event.type === 'clone-destroyed');
        assert.ok(created && destroyed, JSON.stringify(events.map((event) => event.type)));
        assert.deepEqual(created.data.isolation, { level: 'full', reasons: [] });
        assert.equal(destroyed.data.clone, created.data.clone);
        assert.deepEqual(destroyed.data.leftovers, []);
        clones.add(String(created.data.clone));
      }
      assert.equal(clones.size, 2, 'each task had its own clone');
      assert.deepEqual(await manager.list(), []);
      assert.deepEqual(await settledLeftovers(), []);
    });

    it('audits what the clone’s egress proxy refused, for the task that tried', async () => {
      // The page pulls an image from a host outside the task's domains: the browser's request
      // goes to the clone's proxy, which refuses it; the controlplane records the refusal.
      const site = await serve((request) => {
        const { port } = new URL(request.url);
        return new Response(
          `<!doctype html><title>egress</title><h1>hello</h1><img src="http://127.0.0.2:${port}/pixel.png">`,
          { headers: { 'content-type': 'text/html' } },
        );
      });
      try {
        const tasks = platform.createTasks(
          createPerTaskScriptModel(["Action: finished(content='seen')"]),
        );
        const result = await tasks.start({
          instruction: 'look at the page',
          start_url: `${site.url}/`,
          domains: ['127.0.0.1'],
        }).done;
        await tasks.close();
        assert.equal(result.status, 'finished', JSON.stringify(result));
        const refusals = auditOf(result.trace_id).filter(
          (event) => event.type === 'egress-refused',
        );
        assert.ok(
          refusals.some(
            (event) => event.data.host === '127.0.0.2' && event.data.reason === 'not-allowed',
          ),
          JSON.stringify(refusals),
        );
      } finally {
        site.server.closeAllConnections();
        site.server.close();
      }
    });

    it('streams the live feed and serves waits from the clone a running task holds; abort destroys the clone', async () => {
      const tasks = platform.createTasks(createPerTaskScriptModel(['Action: wait()']), {
        policed: false,
      });
      const site = await serve(
        () =>
          new Response('<!doctype html><title>Watch</title><button>Ready button</button>', {
            headers: { 'content-type': 'text/html' },
          }),
      );
      try {
        const { taskId, done } = tasks.start({
          instruction: 'wait forever',
          start_url: `${site.url}/`,
          max_steps: 500,
        });
        const browsers = platform.browsers.browsers;
        for (let i = 0; i < 300 && !browsers.get(taskId); i += 1)
          await new Promise((resolve) => setTimeout(resolve, 50));
        const lease = browsers.get(taskId);
        assert.ok(lease, 'the task holds a browser');
        assert.match(lease.id, /^browsertask\d{3}$/);
        assert.match(lease.service?.url ?? '', /:9223$/);

        const feed = screencastOf(browsers)(taskId);
        assert.ok(feed);
        const stop = new AbortController();
        const response = await feed.open(stop.signal);
        const frame = await mjpegParts(response.body as ReadableStream<Uint8Array>)
          [Symbol.asyncIterator]()
          .next();
        stop.abort();
        assert.equal(frame.value?.[0], 0xff, 'a JPEG frame from the clone');

        const waits = createBrowserWaitService({ browsers, local: null });
        assert.throws(
          () =>
            waits.start({
              conditions: [{ type: 'text_contains', text: 'x' }],
              timeout_ms: 1000,
              block: false,
            }),
          /pass task_id/,
        );
        const wait = waits.start({
          conditions: [{ type: 'text_contains', text: 'Ready button' }],
          timeout_ms: 20_000,
          block: false,
          task_id: taskId,
        });
        assert.equal((await wait.outcome).status, 'resolved');

        tasks.abort(taskId);
        const result = await done;
        assert.equal(result.status, 'aborted');
        assert.equal(browsers.get(taskId), undefined);
        const destroyed = auditOf(taskId).find((event) => event.type === 'clone-destroyed');
        assert.deepEqual(destroyed?.data.leftovers, []);
        assert.deepEqual(await manager.list(), []);
      } finally {
        await tasks.close();
        site.server.closeAllConnections();
        site.server.close();
      }
      assert.deepEqual(await settledLeftovers(), []);
    });
  });
}
