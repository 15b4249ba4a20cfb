// Issue 27's host drill, for real (root): two controlplane replicas on one PostgreSQL database and
// three hostd PROCESSES (real Linux driver), each in its own clone namespace, registered once in
// the shared hosts table. Tasks run on every host, from both replicas; one hostd is killed with
// SIGKILL: its tasks end HOST_LOST on whichever replica ran them, the tasks on the other hosts go
// on, new tasks go to the live hosts, and once that hostd is started again its reconcile reaps
// every clone, network namespace, cgroup and process the killed one left: nothing leaks.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { runDemo } from '../../controlplane/src/ingress/cli/demo-command.js';
import {
  demoTask,
  type RunningDemoSite,
  startDemoSite,
} from '../../controlplane/src/platform/demo/demo-site-server.js';
import type { StartedTask, TaskService } from '../../controlplane/src/tasks/task-service.js';
import {
  FLEET_NAMESPACES,
  hostLeftovers,
  settledLeftovers,
} from '../hostd/support/linux-harness.js';
import { realLinuxDriverFile } from '../hostd/support/real-driver-file.js';
import { requires } from '../support/capabilities.js';
import { isAlive } from '../support/chromium-processes.js';
import { type PostgresCluster, startPostgres } from '../support/postgres/start-postgres.js';
import { submit } from '../support/submit-task.js';
import { lingering, lingerOn } from './support/lingering-model.js';
import { type ReplicaFleet, STALE_MS, startReplicaFleet } from './support/replica-fleet.js';

/** Resolves once `done()` holds; fails naming `what` after `ms`. */
async function until(what: string, done: () => boolean, ms = 60_000): Promise<void> {
  for (const deadline = Date.now() + ms; !done(); await delay(50))
    assert.ok(Date.now() < deadline, `timed out waiting: ${what}`);
}

interface Running extends StartedTask {
  replica: number;
  /** Steps ended so far. */
  count: { steps: number };
}

realLinuxDriverFile('two replicas over three real hostd (real Linux driver)', () => {
  describe('two replicas over three real hostd', requires('postgres'), () => {
    let site: RunningDemoSite;
    let cluster: PostgresCluster;
    let fleet: ReplicaFleet;
    let services: TaskService[] = [];
    before(async () => {
      site = await startDemoSite();
      cluster = await startPostgres();
      fleet = await startReplicaFleet({
        databaseUrl: await cluster.createDatabase(),
        namespaces: FLEET_NAMESPACES,
        replicas: 2,
        capacity: 2,
        concurrency: 3,
        site,
      });
    });
    after(async () => {
      for (const service of services) await service.close();
      await fleet?.close();
      await cluster?.stop();
      await site?.close();
    });

    it('kill -9 of one hostd: its tasks end HOST_LOST on both replicas, the others go on, and a restart reaps what it left', async () => {
      const { hosts, replicas } = fleet;
      services = replicas.map((replica) => replica.createTasks(lingering));
      const running: Running[] = [];
      const start = async (replica: number) => {
        const service = services[replica];
        assert.ok(service);
        const count = { steps: 0 };
        const started = await submit(service, lingerOn(site), (event) => {
          if (event.type === 'step-ended') count.steps += 1;
        });
        running.push({ ...started, replica, count });
        // An unexpected ending (e.g. a healthy host lost) explains a wait that times out.
        void started.done.then((result) => {
          if (result.status !== 'aborted' && result.error?.code !== 'HOST_LOST')
            console.error(`# ${started.taskId} ended: ${JSON.stringify(result)}`);
        });
      };
      const hostOf = (task: Running) => {
        const lease = replicas[task.replica]?.source.browsers.get(task.taskId);
        return hosts.find((host) => lease?.service?.url.startsWith(`${host.url}/`));
      };
      // Replica 0 spreads three tasks over the three hosts; once a heartbeat shows them, replica
      // 1 places a fourth on one of them (every host equally loaded: the first by name).
      for (const _ of hosts) await start(0);
      const stepping = (what: string, least: (task: Running) => number) =>
        until(what, () => running.every((task) => task.count.steps >= least(task))).catch(
          (error: Error) => {
            const state = running.map((task) => `${task.count.steps}@${hostOf(task)?.name}`);
            assert.fail(`${error.message} (steps@host: ${state.join(' ')})`);
          },
        );
      await stepping('the first tasks step', () => 1);
      await delay(1200);
      await start(1);
      await stepping('every task steps twice', () => 2);
      assert.equal(new Set(running.slice(0, 3).map(hostOf)).size, 3, 'tasks on every host');
      const victim = hostOf(running[3] as Running);
      assert.ok(victim);
      const doomed = running.filter((task) => hostOf(task) === victim);
      const others = running.filter((task) => hostOf(task) !== victim);
      assert.deepEqual(
        doomed.map((task) => task.replica),
        [0, 1],
      );

      const pid = victim.pid();
      const killedAt = performance.now();
      const endings = doomed.map((task) =>
        task.done.then((result) => ({ result, ms: performance.now() - killedAt, task })),
      );
      await victim.kill();
      const seen = new Map(others.map((task) => [task, task.count.steps]));
      for (const { result, ms, task } of await Promise.all(endings)) {
        assert.equal(result.status, 'error', JSON.stringify(result));
        assert.equal(result.error?.code, 'HOST_LOST');
        assert.match(result.error?.message ?? '', new RegExp(`jail host ${victim.name} stopped`));
        // Within the stale window and a few heartbeat rounds (they lag on a loaded 2-core host:
        // 4.8 s once with five test files at once), not at some later timeout.
        assert.ok(ms < STALE_MS + 5000, `ended ${ms} ms after its hostd died`);
        console.error(
          `# replica fleet drill: replica ${task.replica} HOST_LOST ${Math.round(ms)} ms after kill -9`,
        );
      }
      // The other hosts' tasks go on stepping, and new tasks of both replicas go to live hosts.
      await stepping('the other tasks step on', (task) => (seen.get(task) ?? -2) + 2);
      const demos = await Promise.all(
        replicas.map((replica) => runDemo(replica.createTasks, { site })),
      );
      for (const { result } of demos) assert.equal(result.summary, demoTask.expectedValue);
      for (const task of others) services[task.replica]?.abort(task.taskId);
      for (const task of others) assert.equal((await task.done).status, 'aborted');
      for (const host of hosts.filter((each) => each !== victim))
        assert.deepEqual(await host.clones(), []);

      // What the dead hostd left (its clone's netns, cgroup, state dir) stays until it is back.
      assert.ok(pid !== null && !isAlive(pid));
      assert.notDeepEqual(hostLeftovers({ namespaces: [victim.namespace], zombies: false }), []);
      await victim.restart();
      assert.deepEqual(await victim.clones(), []);
      await until(
        'the restarted hostd reaped every clone the killed one left',
        () => hostLeftovers({ namespaces: [victim.namespace], zombies: false }).length === 0,
        10_000,
      );
      for (const service of services) await service.close();
      await fleet.close();
      assert.deepEqual(await settledLeftovers(), []);
    });
  });
});
