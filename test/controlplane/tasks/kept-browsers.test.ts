import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import type {
  BrowserLease,
  BrowserProvider,
} from '../../../controlplane/src/browser/provider/browser-provider.js';
import { trackLeases } from '../../../controlplane/src/browser/provider/task-browsers.js';
import { createAuditLog } from '../../../controlplane/src/governance/audit/audit-log.js';
import type { Principal } from '../../../controlplane/src/governance/auth/scopes.js';
import {
  parsePolicy,
  policySetOf,
} from '../../../controlplane/src/governance/policy/load-policies.js';
import { createPolicyAdmission } from '../../../controlplane/src/governance/policy/task-admission.js';
import { createAuditRepository } from '../../../controlplane/src/platform/store/audit-repository.js';
import { openDatabase } from '../../../controlplane/src/platform/store/database.js';
import { createTaskService } from '../../../controlplane/src/tasks/task-service.js';
import { createFakeOperator } from '../../support/fake-operator.js';
import { createPerTaskScriptModel } from '../../support/per-task-script-model.js';
import { submit } from '../../support/submit-task.js';
import { createTestTaskDeps } from '../../support/test-task-deps.js';

const principal = (tenant: string): Principal => ({
  tenant,
  subject: `${tenant}-user`,
  scopes: ['tasks:run', 'tasks:read'],
  via: 'token',
});

const policy = (tenant: string, keep: string) =>
  parsePolicy(
    `tenant: ${tenant}\ndomains: { allow: [shop.example, bank.example] }\nmax_steps: 10\nkeep_session: ${keep}\n`,
    `${tenant}.yaml`,
  );

/** Clones that count themselves: each acquire is a new lease; releases are recorded. */
function countingProvider(concurrency: number) {
  const released: string[] = [];
  let made = 0;
  const provider: BrowserProvider = {
    concurrency,
    async acquire(): Promise<BrowserLease> {
      const id = `clone-${++made}`;
      return {
        id,
        service: null,
        operator: createFakeOperator().operator,
        release: async () => {
          released.push(id);
        },
      };
    },
  };
  return { provider, released, made: () => made };
}

function setup(options: { concurrency?: number; keep?: string } = {}) {
  const keep = options.keep ?? '{ idle_ttl_s: 1, max_sessions: 1 }';
  const test = createTestTaskDeps({
    model: createPerTaskScriptModel(['Action: finished(content="done")']),
  });
  const database = openDatabase(':memory:');
  const audit = createAuditLog(createAuditRepository(database.db), { now: () => Date.now() });
  const clones = countingProvider(options.concurrency ?? 3);
  const tracked = trackLeases(clones.provider);
  const tasks = createTaskService(
    {
      ...test.deps,
      audit,
      admission: createPolicyAdmission({
        policies: policySetOf([policy('acme', keep), policy('other', keep)]),
        audit,
        defaults: { maxSteps: 10 },
      }),
    },
    undefined,
    tracked.provider,
  );
  const types = async () => (await audit.list({ limit: 200 })).map((row) => row.type);
  return { tasks, clones, browsers: tracked.browsers, audit, types, test, database };
}

const opened: { close(): Promise<void> }[] = [];
after(async () => {
  for (const item of opened) await item.close();
});

describe('kept browsers (keep_session / session_id)', () => {
  it('keeps the browser after the task and hands the same one to the follow-up', async () => {
    const { tasks, clones, browsers, types } = setup();
    opened.push(tasks);
    const first = await (
      await submit(
        tasks,
        { instruction: 'log in', keep_session: true },
        undefined,
        principal('acme'),
      )
    ).done;
    assert.match(first.session_id ?? '', /^ks_/);
    assert.deepEqual(clones.released, [], 'the kept clone is not destroyed');
    assert.equal(browsers.list().length, 0, 'no task holds it while it is kept');

    const second = await submit(
      tasks,
      { instruction: 'go on', session_id: first.session_id as string },
      undefined,
      principal('acme'),
    );
    const result = await second.done;
    assert.equal(result.status, 'finished');
    assert.equal(clones.made(), 1, 'the follow-up made no new clone');
    assert.deepEqual(
      clones.released,
      ['clone-1'],
      'released after the follow-up, which did not keep it',
    );
    assert.ok(
      (await types()).includes('browser-kept') && (await types()).includes('browser-resumed'),
    );
  });

  it('refuses another tenant, a used id and a follow-up wider than its domains', async () => {
    const { tasks } = setup();
    opened.push(tasks);
    const first = await (
      await submit(
        tasks,
        { instruction: 'a', keep_session: true, domains: ['shop.example'] },
        undefined,
        principal('acme'),
      )
    ).done;
    const id = first.session_id as string;
    await assert.rejects(
      submit(tasks, { instruction: 'steal', session_id: id }, undefined, principal('other')),
      (error: Error & { code?: string; status?: number }) =>
        error.code === 'SESSION_NOT_FOUND' && error.status === 404,
    );
    await assert.rejects(
      submit(
        tasks,
        { instruction: 'narrow', session_id: id, domains: ['bank.example'] },
        undefined,
        principal('acme'),
      ),
      (error: Error & { code?: string }) => error.code === 'POLICY_DENIED',
    );
    await (await submit(tasks, { instruction: 'ok', session_id: id }, undefined, principal('acme')))
      .done;
    await assert.rejects(
      submit(tasks, { instruction: 'again', session_id: id }, undefined, principal('acme')),
      (error: Error & { code?: string }) => error.code === 'SESSION_NOT_FOUND',
    );
  });

  it('destroys a kept browser nobody used for its idle TTL, audited', async () => {
    const { tasks, clones, audit } = setup();
    opened.push(tasks);
    const first = await (
      await submit(tasks, { instruction: 'a', keep_session: true }, undefined, principal('acme'))
    ).done;
    await delay(1400);
    assert.deepEqual(clones.released, ['clone-1']);
    const ended = (await audit.list({ limit: 200 })).find(
      (row) => row.type === 'kept-browser-ended',
    );
    assert.equal(ended?.data.reason, 'idle');
    assert.equal(ended?.taskId, first.trace_id);
    await assert.rejects(
      submit(
        tasks,
        { instruction: 'late', session_id: first.session_id as string },
        undefined,
        principal('acme'),
      ),
      (error: Error & { code?: string }) => error.code === 'SESSION_NOT_FOUND',
    );
  });

  it('keeps no more than the policy and the concurrency limit allow, and others still run', async () => {
    const { tasks, clones } = setup({ concurrency: 2, keep: '{ max_sessions: 5 }' });
    opened.push(tasks);
    const kept = await (
      await submit(tasks, { instruction: 'a', keep_session: true }, undefined, principal('acme'))
    ).done;
    assert.match(kept.session_id ?? '', /^ks_/);
    const refused = await (
      await submit(tasks, { instruction: 'b', keep_session: true }, undefined, principal('acme'))
    ).done;
    assert.equal(refused.status, 'finished');
    assert.equal(refused.session_id, null);
    assert.match(refused.session_refused ?? '', /no browser slot for other tasks/);
    assert.deepEqual(clones.released, ['clone-2'], 'the refused one is destroyed as usual');
  });

  it('per tenant: the policy limit and keep_session.allowed', async () => {
    const limited = setup({ keep: '{ max_sessions: 1 }' });
    opened.push(limited.tasks);
    await (
      await submit(
        limited.tasks,
        { instruction: 'a', keep_session: true },
        undefined,
        principal('acme'),
      )
    ).done;
    const second = await (
      await submit(
        limited.tasks,
        { instruction: 'b', keep_session: true },
        undefined,
        principal('acme'),
      )
    ).done;
    assert.match(second.session_refused ?? '', /policy's limit/);
    const forbidden = setup({ keep: '{ allowed: false }' });
    opened.push(forbidden.tasks);
    await assert.rejects(
      submit(
        forbidden.tasks,
        { instruction: 'a', keep_session: true },
        undefined,
        principal('acme'),
      ),
      /kept browser sessions are not allowed/,
    );
  });

  it('destroys kept browsers when the service closes', async () => {
    const { tasks, clones } = setup();
    await (
      await submit(tasks, { instruction: 'a', keep_session: true }, undefined, principal('acme'))
    ).done;
    assert.deepEqual(clones.released, []);
    await tasks.close();
    assert.deepEqual(clones.released, ['clone-1']);
  });
});
