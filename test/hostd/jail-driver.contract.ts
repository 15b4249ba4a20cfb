// The JailDriver contract: behaviour every driver (fake, Linux, FreeBSD) must show. Register it
// with `jailDriverContract('name', factory)` from a *.test.ts file; the factory builds a driver of
// the namespace it is given, every one on the same host.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import {
  type CloneNamespace,
  cloneNamespace,
  DEFAULT_NAMESPACE,
} from '../../hostd/src/drivers/clone-namespace.js';
import {
  type CloneSpec,
  type JailDriver,
  JailDriverError,
  cloneName as nameOf,
  parseCloneName,
} from '../../hostd/src/drivers/jail-driver.js';

export interface ContractOptions {
  /** Indexes the suite may use (must be free on the host). */
  indexes: readonly [number, number, number];
  /** Start the jail-service in one test (slow on real drivers). Default true. */
  start?: boolean;
  /** Checks that a started clone's service answers; default: GET /health with the token. */
  checkService?: (url: string, token: string) => Promise<void>;
  /** The suite's own namespace and another one on the same host (default `default` and `test`). */
  namespaces?: { own: CloneNamespace; other: CloneNamespace };
}

export const contractSpec = (taskId: string): CloneSpec => ({
  taskId,
  allowedDomains: ['example.com', '*.example.org'],
  limits: { memoryMb: 1024, pids: 512, cpuPercent: 100 },
  display: false,
});

export function jailDriverContract(
  label: string,
  factory: (namespace: CloneNamespace) => JailDriver | Promise<JailDriver>,
  options: ContractOptions,
): void {
  const [a, b, c] = options.indexes;
  const { own, other } = options.namespaces ?? {
    own: DEFAULT_NAMESPACE,
    other: cloneNamespace('test'),
  };
  const cloneName = (index: number) => nameOf(index, own);
  describe(`JailDriver contract: ${label}`, () => {
    const driverReady = Promise.resolve(factory(own));
    const otherReady = Promise.resolve(factory(other));
    after(async () => {
      const [d, o] = await Promise.all([driverReady, otherReady]);
      for (const index of options.indexes) await d.destroy(cloneName(index));
      for (const index of options.indexes) await o.destroy(nameOf(index, other));
    });

    it('derives names from the namespace and index and back', async () => {
      assert.equal((await driverReady).namespace, own);
      assert.equal(nameOf(7, DEFAULT_NAMESPACE), 'browsertask007');
      assert.equal(nameOf(7, cloneNamespace('test')), 'browsertasktest007');
      assert.equal(parseCloneName('browsertask042', DEFAULT_NAMESPACE), 42);
      assert.equal(parseCloneName('browsertask42', DEFAULT_NAMESPACE), null);
      assert.equal(parseCloneName(nameOf(42, other), own), null);
      assert.equal(parseCloneName(nameOf(42, own), other), null);
      assert.throws(() => cloneName(1000));
    });

    it('creates a clone that list and inspect then observe', async () => {
      const d = await driverReady;
      const created = await d.create(a, contractSpec('task-a'));
      assert.equal(created.name, cloneName(a));
      assert.equal(created.state, 'created');
      assert.equal(created.taskId, 'task-a');
      assert.equal(created.isolation.level === 'full', created.isolation.reasons.length === 0);
      const listed = await d.list();
      assert.ok(listed.some((clone) => clone.name === cloneName(a)));
      assert.equal((await d.inspect(cloneName(a)))?.index, a);
    });

    it('refuses to create over existing resources with CLONE_EXISTS', async () => {
      const d = await driverReady;
      await assert.rejects(
        () => d.create(a, contractSpec('task-a-again')),
        (error) => error instanceof JailDriverError && error.code === 'CLONE_EXISTS',
      );
    });

    it('destroys verified and idempotently; an unknown clone has no leftovers', async () => {
      const d = await driverReady;
      assert.deepEqual((await d.destroy(cloneName(a))).leftovers, []);
      assert.deepEqual((await d.destroy(cloneName(a))).leftovers, []);
      assert.equal(await d.inspect(cloneName(a)), null);
      assert.equal(await d.inspect('not-a-clone'), null);
    });

    if (options.start !== false) {
      it('starts the jail-service, which answers its health check with the token', async () => {
        const d = await driverReady;
        await d.create(b, contractSpec('task-b'));
        const started = await d.start(cloneName(b), { egressProxyUrl: null });
        assert.equal(started.state, 'running');
        assert.ok(started.service);
        await options.checkService?.(started.service.url, started.service.token);
        const stopped = await d.stop(cloneName(b));
        assert.notEqual(stopped?.state, 'running');
        assert.deepEqual((await d.destroy(cloneName(b))).leftovers, []);
      });
    }

    it('reconcile destroys every clone that is not confirmed and keeps confirmed ones', async () => {
      const d = await driverReady;
      await d.create(c, contractSpec('orphan'));
      const result = await d.reconcile(() => true);
      assert.ok(result.destroyed.includes(cloneName(c)), 'a never-started clone is not live');
      assert.equal(await d.inspect(cloneName(c)), null);
      assert.deepEqual(result.leftovers, {});
    });

    it("never observes, destroys or reconciles another namespace's clones, even at its index", async () => {
      const [d, o] = await Promise.all([driverReady, otherReady]);
      const theirs = await o.create(c, contractSpec('theirs'));
      assert.equal(theirs.name, nameOf(c, other));
      assert.equal(await d.inspect(theirs.name), null);
      assert.ok(!(await d.list()).some((clone) => clone.name === theirs.name));
      const ours = await d.create(c, contractSpec('ours'));
      assert.equal(ours.name, cloneName(c));
      const result = await d.reconcile(() => false);
      assert.ok(result.destroyed.includes(ours.name));
      assert.ok(!result.destroyed.includes(theirs.name), JSON.stringify(result));
      assert.deepEqual((await d.destroy(theirs.name)).leftovers, []);
      const still = await o.inspect(theirs.name);
      assert.equal(still?.taskId, 'theirs');
      assert.equal(still?.state, theirs.state);
      assert.deepEqual(still?.resources, theirs.resources);
      const theirReconcile = await o.reconcile(() => false);
      assert.deepEqual(theirReconcile.destroyed, [theirs.name]);
      assert.equal(await o.inspect(theirs.name), null);
    });
  });
}
