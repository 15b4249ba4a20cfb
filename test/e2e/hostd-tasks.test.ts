// The controlplane with hostd for real (root): every task runs in its own Linux clone made by the
// real driver behind hostd's HTTP API, reached through HostdClient exactly as `npm start` does with
// CLAWDIE_HOSTD_URL. Clones are host-global, so this file holds the host lock while it runs.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ScreencastFeed } from '../../controlplane/src/browser/operator/screencast-feed.js';
import { holderName } from '../../controlplane/src/browser/provider/lease-holder.js';
import { screencastOf } from '../../controlplane/src/browser/provider/task-browsers.js';
import { mjpegParts } from '../../controlplane/src/browser/recording/mjpeg-parts.js';
import { createBrowserWaitService } from '../../controlplane/src/browser/wait/browser-wait-service.js';
import { runDemo } from '../../controlplane/src/ingress/cli/demo-command.js';
import {
  demoTask,
  type RunningDemoSite,
  startDemoSite,
} from '../../controlplane/src/platform/demo/demo-site-server.js';
import { openDatabase } from '../../controlplane/src/platform/store/database.js';
import { createInstanceRepository } from '../../controlplane/src/platform/store/instance-repository.js';
import { linuxDriverMissing } from '../hostd/support/linux-harness.js';
import { skipFile } from '../support/capabilities.js';
import { capturingLogger } from '../support/capturing-logger.js';
import { createTestControlplane } from '../support/controlplane.js';
import { createPerTaskScriptModel } from '../support/per-task-script-model.js';
import { submit } from '../support/submit-task.js';
import { testImages } from '../support/test-images.js';
import {
  closeServer,
  type HostdControlplane,
  serveOnLoopback,
  settledLeftovers,
  startHostdControlplane,
} from './support/hostd-controlplane.js';

// The page of the egress test pulls an image from a host outside the task's domains: the browser's
// request goes to the clone's proxy, which refuses it.
const egressPage = (request: Request) => {
  const { port } = new URL(request.url);
  return new Response(
    `<!doctype html><title>egress</title><h1>hello</h1><img src="http://127.0.0.2:${port}/pixel.png">`,
    { headers: { 'content-type': 'text/html' } },
  );
};
const watchPage = () =>
  new Response('<!doctype html><title>Watch</title><button>Ready button</button>', {
    headers: { 'content-type': 'text/html' },
  });

type Browsers = HostdControlplane['controlplane']['source']['browsers'];

/** Reads the feed's first part within 15 s: a JPEG. */
async function firstFrameOf(feed: ScreencastFeed | null): Promise<void> {
  assert.ok(feed, 'the task has a live feed');
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(new Error('no frame from the clone in 15 s')), 15_000);
  try {
    const response = await feed.open(stop.signal);
    const frame = await mjpegParts(response.body as ReadableStream<Uint8Array>)
      [Symbol.asyncIterator]()
      .next();
    assert.equal(frame.value?.[0], 0xff, 'a JPEG frame from the clone');
  } finally {
    clearTimeout(timer);
    stop.abort();
  }
}

/** A wait needs the task's id with the clones; with it, it reads the task's page. */
async function resolvedWait(browsers: Browsers, taskId: string): Promise<void> {
  const waits = createBrowserWaitService({ images: testImages, browsers, local: null });
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
  const outcome = await wait.outcome;
  assert.equal(outcome.status, 'resolved', JSON.stringify(outcome));
}

const missing = linuxDriverMissing();

if (!skipFile('controlplane tasks in hostd clones (real Linux driver)', missing)) {
  describe('controlplane tasks in hostd clones (real Linux driver)', () => {
    let h: HostdControlplane;
    // Fixture sites on the host's loopback, started first: each is an exact egress exception of
    // hostd; nothing else on the host is reachable from a clone.
    let demoSite: RunningDemoSite;
    let egressSite: Awaited<ReturnType<typeof serveOnLoopback>>;
    let watchSite: Awaited<ReturnType<typeof serveOnLoopback>>;
    // The platform's warnings, printed with a failure's diagnostics.
    const logged = capturingLogger('warn', 200);
    before(async () => {
      demoSite = await startDemoSite();
      egressSite = await serveOnLoopback(egressPage);
      watchSite = await serveOnLoopback(watchPage);
      const sites = [demoSite.url, egressSite.url, watchSite.url].map((url) => new URL(url).host);
      h = await startHostdControlplane({ concurrency: 2, sites, logger: logged.logger });
    });
    after(async () => {
      await h?.close();
      await demoSite?.close();
      closeServer(egressSite);
      closeServer(watchSite);
    });

    /** What a failed step of `taskId` reports besides its error: audit, hostd, logs. */
    const explained = async (error: unknown, taskId: string) => {
      // Without the jail-services' tokens.
      const clones = await h.manager
        .list()
        .then((list) => list.map(({ service, ...clone }) => ({ ...clone, url: service?.url })))
        .catch((cause: unknown) => String(cause));
      const rows = await auditOf(taskId).catch((cause: unknown) => String(cause));
      return new Error(
        [
          `${(error as Error).message}`,
          `audit of ${taskId}: ${JSON.stringify(rows)}`,
          `hostd clones: ${JSON.stringify(clones)}`,
          `controlplane warnings:\n${logged.lines.join('')}`,
          `jail-service lines:\n${h.serviceLines.join('\n')}`,
        ].join('\n'),
        { cause: error },
      );
    };

    const auditOf = async (taskId: string) =>
      (await h.controlplane.audit.list({ taskId, limit: 1000 })).map((row) => ({
        type: row.type,
        data: row.data,
      }));

    it('a restarted controlplane destroys the clones its crashed predecessor left on hostd', async () => {
      // Held by a controlplane of this store whose instance is gone (never registered, or pruned).
      const database = openDatabase(h.controlplane.config.databasePath);
      const store = await createInstanceRepository(database.db).storeId();
      database.close();
      const crashed = holderName({ store, instance: 'a-crashed-controlplane' });
      const orphan = await h.manager.create({
        taskId: 'crashed-task',
        allowedDomains: [],
        holder: crashed,
      });
      const again = await createTestControlplane({
        config: h.controlplane.config,
        browsers: 'config',
      });
      await again.close();
      assert.deepEqual(await h.manager.list(), []);
      const destroyed = (
        await h.controlplane.audit.list({ taskId: 'crashed-task', limit: 10 })
      ).find((row) => row.type === 'clone-destroyed');
      assert.equal(destroyed?.data.clone, orphan.name);
      assert.equal(destroyed?.data.reason, 'holder replica gone');
      assert.equal(destroyed?.data.holder, crashed);
    });

    it('describes hostd as the browser source and keeps no shared browser', () => {
      assert.equal(h.controlplane.source.local, null);
      assert.match(h.controlplane.browsers, /^hostd at .* a fresh clone per task, 2 at once/);
    });

    it('runs two demo tasks at once, each in its own clone, and destroys both clones verified', async () => {
      const [first, second] = await Promise.all([
        runDemo(h.controlplane.createTasks, { site: demoSite }),
        runDemo(h.controlplane.createTasks, { site: demoSite }),
      ]);
      const clones = new Set<string>();
      for (const { result } of [first, second]) {
        assert.equal(result.status, 'finished', JSON.stringify(result));
        assert.equal(result.summary, demoTask.expectedValue);
        const events = await auditOf(result.trace_id);
        const created = events.find((event) => event.type === 'clone-created');
        const destroyed = events.find((event) => event.type === 'clone-destroyed');
        assert.ok(created && destroyed, JSON.stringify(events.map((event) => event.type)));
        assert.deepEqual(created.data.isolation, { level: 'full', reasons: [] });
        assert.equal(destroyed.data.clone, created.data.clone);
        assert.deepEqual(destroyed.data.leftovers, []);
        clones.add(String(created.data.clone));
      }
      assert.equal(clones.size, 2, 'each task had its own clone');
      assert.deepEqual(await h.manager.list(), []);
      assert.deepEqual(await settledLeftovers(), []);
    });

    it('audits what the clone’s egress proxy refused, for the task that tried', async () => {
      // The page pulls an image from a host outside the task's domains: the browser's request
      // goes to the clone's proxy, which refuses it; the controlplane records the refusal.
      const tasks = h.controlplane.createTasks(
        createPerTaskScriptModel(["Action: finished(content='seen')"]),
      );
      const result = await (
        await submit(tasks, {
          instruction: 'look at the page',
          start_url: `${egressSite.url}/`,
          domains: [new URL(egressSite.url).host],
        })
      ).done;
      await tasks.close();
      assert.equal(result.status, 'finished', JSON.stringify(result));
      const refusals = (await auditOf(result.trace_id)).filter(
        (event) => event.type === 'egress-refused',
      );
      assert.ok(
        refusals.some(
          (event) => event.data.host === '127.0.0.2' && event.data.reason === 'not-allowed',
        ),
        JSON.stringify(refusals),
      );
      const created = (await auditOf(result.trace_id)).find(
        (event) => event.type === 'clone-created',
      );
      assert.deepEqual(created?.data.egressExceptions, [
        new URL(demoSite.url).host,
        new URL(egressSite.url).host,
        new URL(watchSite.url).host,
      ]);
    });

    it('streams the live feed and serves waits from the clone a running task holds; abort destroys the clone', async () => {
      const tasks = h.controlplane.createTasks(createPerTaskScriptModel(['Action: wait()']), {
        policed: false,
      });
      const site = watchSite;
      try {
        const { taskId, done } = await submit(tasks, {
          instruction: 'wait forever',
          start_url: `${site.url}/`,
          domains: [new URL(site.url).host],
          max_steps: 500,
        });
        const browsers = h.controlplane.source.browsers;
        for (let i = 0; i < 300 && !browsers.get(taskId); i += 1)
          await new Promise((resolve) => setTimeout(resolve, 50));
        const lease = browsers.get(taskId);
        assert.ok(lease, 'the task holds a browser');
        assert.match(lease.id, /^browsertasktest\d{3}$/);
        assert.match(lease.service?.url ?? '', /:9223$/);

        try {
          await firstFrameOf(screencastOf(browsers)(taskId));
          await resolvedWait(browsers, taskId);
        } catch (error) {
          throw await explained(error, taskId);
        }

        tasks.abort(taskId);
        const result = await done;
        assert.equal(result.status, 'aborted');
        assert.equal(browsers.get(taskId), undefined);
        const destroyed = (await auditOf(taskId)).find((event) => event.type === 'clone-destroyed');
        assert.deepEqual(destroyed?.data.leftovers, []);
        assert.deepEqual(await h.manager.list(), []);
      } finally {
        await tasks.close();
      }
      assert.deepEqual(await settledLeftovers(), []);
    });
  });
}
