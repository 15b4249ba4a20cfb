// A fleet on one machine, for real (root): two hostd with the real Linux driver, each in its own
// clone namespace, registered with `clawdie hosts add` (its command code), and a controlplane with
// CLAWDIE_FLEET=on that places four demo tasks at once over them, each in a real clone, every
// call on a clone (actions, screenshots, the live feed) going through its hostd's relay.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { screencastOf } from '../../controlplane/src/browser/provider/task-browsers.js';
import { mjpegParts } from '../../controlplane/src/browser/recording/mjpeg-parts.js';
import { runDemo } from '../../controlplane/src/ingress/cli/demo-command.js';
import {
  demoTask,
  type RunningDemoSite,
  startDemoSite,
} from '../../controlplane/src/platform/demo/demo-site-server.js';
import { acquireHostLock } from '../hostd/support/host-lock.js';
import {
  linuxDriverMissing,
  TEST_NAMESPACE,
  TEST_OTHER_NAMESPACE,
} from '../hostd/support/linux-harness.js';
import { skipFile } from '../support/capabilities.js';
import { createTestControlplane, type TestControlplane } from '../support/controlplane.js';
import { submit } from '../support/submit-task.js';
import { type Fleet, type RealHostd, startFleet } from './support/fleet-harness.js';
import { settledLeftovers } from './support/hostd-controlplane.js';
import { lingering, lingerOn } from './support/lingering-model.js';

const missing = linuxDriverMissing();

/** The p50 of `calls` timed calls of `call`, in ms. */
async function p50(calls: number, call: () => Promise<void>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < calls; i += 1) {
    const started = performance.now();
    await call();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(calls / 2)] ?? 0;
}

if (!skipFile('a fleet of two real hostd (real Linux driver)', missing)) {
  describe('a fleet of two real hostd (real Linux driver)', () => {
    let release: () => void;
    let site: RunningDemoSite;
    let hosts: RealHostd[] = [];
    let controlplane: TestControlplane;
    let fleet: Fleet;
    before(async () => {
      release = await acquireHostLock();
      site = await startDemoSite();
      fleet = await startFleet({
        namespaces: [TEST_NAMESPACE, TEST_OTHER_NAMESPACE],
        capacity: 2,
        concurrency: 4,
        site,
      });
      ({ hosts, controlplane } = fleet);
    });
    after(async () => {
      await fleet?.close();
      await site?.close();
      release?.();
    });

    it('runs four tasks at once, two clones on each host, and leaves nothing behind', async () => {
      const runs = await Promise.all(
        [1, 2, 3, 4].map(() => runDemo(controlplane.createTasks, { site })),
      );
      for (const { result } of runs) {
        assert.equal(result.status, 'finished', JSON.stringify(result));
        assert.equal(result.summary, demoTask.expectedValue);
      }
      assert.deepEqual(
        hosts.map((host) => host.created.length),
        [2, 2],
      );
      // Every browser call went through a hostd's relay: none reached a clone's address directly.
      for (const host of hosts) {
        assert.ok(host.relayed.includes('/screenshot'), host.relayed.join(' '));
        assert.ok(host.relayed.includes('/actions'), host.relayed.join(' '));
      }
      for (const host of hosts) assert.deepEqual(await host.manager.list(), []);
      assert.deepEqual(await settledLeftovers(), []);
    });

    it('shows a fleet task live through the relay, and measures what the relay costs a screenshot', async () => {
      const tasks = controlplane.createTasks(lingering);
      const { taskId, done } = await submit(tasks, lingerOn(site));
      const browsers = controlplane.source.browsers;
      // The clone's start on a loaded host: once more than 15 s with five test files at once.
      const leased = Date.now() + 45_000;
      let ended: string | undefined;
      void done.then((result) => {
        ended = JSON.stringify(result);
      });
      while (!browsers.get(taskId) && !ended && Date.now() < leased) await delay(50);
      const lease = browsers.get(taskId);
      const host = hosts.find((candidate) => lease?.service?.url.startsWith(`${candidate.url}/`));
      assert.ok(
        lease?.service && host,
        `the lease's jail-service is its hostd: ${lease?.service?.url} (the task: ${ended ?? 'still running'}; hosts: ${JSON.stringify(await Promise.all(hosts.map((each) => each.manager.list())))})`,
      );
      const before = host.relayed.filter((path) => path.startsWith('/screencast')).length;

      const feed = screencastOf(browsers)(taskId);
      assert.ok(feed);
      const stop = new AbortController();
      const response = await feed.open(stop.signal);
      const frame = await mjpegParts(response.body as ReadableStream<Uint8Array>)
        [Symbol.asyncIterator]()
        .next();
      stop.abort();
      assert.equal(frame.value?.[0], 0xff, 'a JPEG frame from the clone, through the relay');
      assert.equal(
        host.relayed.filter((path) => path.startsWith('/screencast')).length,
        before + 1,
      );

      // The same clone's screenshot at the address its hostd reports (reachable here: one machine).
      const [clone] = await host.manager.list();
      assert.ok(clone);
      const shoot = (endpoint: { url: string; token: string }) => async () => {
        const shot = await fetch(`${endpoint.url}/screenshot`, {
          headers: { authorization: `Bearer ${endpoint.token}` },
        });
        if (shot.status !== 200) {
          const lines = host.serviceLines.slice(-40).join('\n');
          assert.fail(`${endpoint.url}/screenshot: ${shot.status} ${await shot.text()}\n${lines}`);
        }
        await shot.arrayBuffer();
      };
      const relayed = lease.service;
      // A diagnostic, not a bound (timing belongs to the benches): 10 calls each after 2 of warm-up
      // (30 until 2026-11-28: 13 s of a loaded CI run for a figure nothing asserts).
      await p50(2, shoot(relayed));
      await p50(2, shoot(clone.service));
      const direct = await p50(10, shoot(clone.service));
      const through = await p50(10, shoot(relayed));
      console.error(
        `# fleet relay: screenshot p50 ${through.toFixed(1)} ms relayed vs ${direct.toFixed(1)} ms direct (10 calls each)`,
      );
      tasks.abort(taskId);
      assert.equal((await done).status, 'aborted');
      await tasks.close();
      for (const each of hosts) assert.deepEqual(await each.manager.list(), []);
    });

    it('keeps a running task’s clone while a second controlplane starts on the same hosts', async () => {
      const tasks = controlplane.createTasks(lingering);
      let steps = 0;
      const running = await submit(tasks, lingerOn(site), (event) => {
        if (event.type === 'step-ended') steps += 1;
      });
      let ended: string | undefined;
      void running.done.then((result) => {
        ended = JSON.stringify(result);
      });
      try {
        while (steps < 2) await delay(50);
        const second = await createTestControlplane({
          config: controlplane.config,
          browsers: 'config',
        });
        try {
          // Its start and three of its heartbeat rounds: each one used to end every lease there,
          // and the task's next call on its clone then failed. Counted in steps, not in time: a
          // step takes 0.5 s here and more than 0.8 s on a busy CI machine.
          const seen = steps;
          await delay(1600);
          for (let waited = 0; steps < seen + 2 && !ended && waited < 30_000; waited += 50) {
            await delay(50);
          }
          assert.equal(ended, undefined, 'the task is still running');
          assert.ok(steps >= seen + 2, `the task went on stepping (${seen} → ${steps})`);
          const clones = (await Promise.all(hosts.map((host) => host.manager.list()))).flat();
          assert.deepEqual(
            clones.map((clone) => clone.taskId),
            [running.taskId],
          );
        } finally {
          await second.close();
        }
      } finally {
        // Ended here even when an assertion failed, so that the next drill starts on empty hosts.
        tasks.abort(running.taskId);
      }
      assert.equal((await running.done).status, 'aborted', 'ended by us, not by a lost clone');
      await tasks.close();
      for (const each of hosts) assert.deepEqual(await each.manager.list(), []);
    });

    it('ends the tasks of a host that stops answering HOST_LOST, keeps the others, and reaps its clone when it is back', async () => {
      // Loads come from heartbeats too: one round after the last test's clones are gone.
      await delay(1200);
      const tasks = controlplane.createTasks(lingering);
      const steps: string[] = [];
      const victim = await submit(tasks, lingerOn(site), (event) => {
        if (event.type === 'step-ended') steps.push(event.type);
      });
      while (steps.length < 2) await delay(50);
      // The host the task was placed on goes dark; the other host keeps working.
      const lists = await Promise.all(hosts.map((host) => host.manager.list()));
      const index = lists.findIndex((clones) => clones.length === 1);
      const dark = hosts[index];
      assert.ok(dark, 'the task holds a clone on one host');
      assert.deepEqual(lists.map((clones) => clones.length).sort(), [0, 1]);
      const other = runDemo(controlplane.createTasks, { site });
      dark.setDark(true);
      const darkAt = Date.now();
      const result = await victim.done;
      const lostAfterMs = Date.now() - darkAt;
      assert.equal(result.status, 'error', JSON.stringify(result));
      assert.equal(result.error?.code, 'HOST_LOST');
      assert.match(
        result.error?.message ?? '',
        new RegExp(`jail host h${index} stopped answering`),
      );
      assert.ok(lostAfterMs < 5000, `ended ${lostAfterMs} ms after its host went dark`);
      console.error(`# fleet drill: HOST_LOST ${lostAfterMs} ms after the host went dark`);
      assert.equal((await other).result.status, 'finished');
      // Its clone is still on the dark host: hostd could not be asked to destroy it.
      assert.equal((await dark.manager.list()).length, 1);
      dark.setDark(false);
      for (let waited = 0; waited < 10_000; waited += 100) {
        if ((await dark.manager.list()).length === 0) break;
        await delay(100);
      }
      assert.deepEqual(await dark.manager.list(), [], 'reaped when the host answered again');
      await tasks.close();
      assert.deepEqual(await settledLeftovers(), []);
    });
  });
}
