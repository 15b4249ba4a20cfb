import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { VisionModel } from '../../../../controlplane/src/agent/model/chat-types.js';
import type { WaitService } from '../../../../controlplane/src/browser/wait/wait-service.js';
import type { Scope } from '../../../../controlplane/src/governance/auth/scopes.js';
import { createApp } from '../../../../controlplane/src/ingress/http/app.js';
import { createArtifactFiles } from '../../../../controlplane/src/platform/store/artifact-files.js';
import { createTaskService } from '../../../../controlplane/src/tasks/task-service.js';
import { silentLogger } from '../../../support/silent-logger.js';
import { createTestTaskDeps } from '../../../support/test-task-deps.js';
import { createAuthFixture } from '../../governance/auth/auth-fixture.js';

const outputs = [
  "Thought: go\nAction: click(start_box='<|box_start|>(644,406)<|box_end|>')",
  "Action: finished(content='42')",
];
/** Replays `outputs`; while `hold` is set, each call blocks until the task is aborted. */
let hold = false;
const model: VisionModel = {
  name: 'tenancy',
  isReplay: true,
  async complete(request, signal) {
    if (hold) {
      await new Promise((_, reject) => {
        if (signal?.aborted) reject(signal.reason);
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
    }
    const turn = request.messages.filter((message) => message.role === 'assistant').length;
    return { text: outputs[turn] ?? 'Action: wait()', requestBytes: 1, usage: null };
  },
};

const auth = await createAuthFixture();
const { deps, repository, close, dataDir } = createTestTaskDeps({ model, loop: { maxSteps: 5 } });
const tasks = createTaskService(deps);
const artifacts = createArtifactFiles(dataDir);
/** Stores `report.txt` as a task's downloaded file. */
const storeArtifact = async (taskId: string) => {
  const body = new Blob(['a downloaded report\n']).stream();
  const saved = await artifacts.save(taskId, 'report.txt', body, 1000);
  const facts = { source_url: 'http://x/report.txt', step: 1, stored_at: 0, mime: 'text/plain' };
  await artifacts.record(taskId, [{ name: 'report.txt', ...saved, ...facts }]);
};
const app = createApp({
  tasks,
  repository,
  logger: silentLogger,
  defaultMaxSteps: 5,
  describe: () => ({ model: { name: 'tenancy', replay: true }, jail: { url: 'x' } }),
  auth: { verifier: auth.verifier },
  artifacts,
});
after(async () => {
  await tasks.close();
  close();
});

const member = (tenant: string) => auth.token(['tasks:run', 'tasks:read'], tenant);
const admin = () => auth.token(['admin'], 'admins');
const call = async (method: string, path: string, token: string, body?: unknown) =>
  app.request(path, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
const start = async (token: string) => {
  const response = await call('POST', '/v1/tasks', token, { instruction: 'read the answer' });
  assert.equal(response.status, 202);
  return ((await response.json()) as { trace_id: string }).trace_id;
};
const settle = async (id: string) => {
  for (let i = 0; i < 200 && tasks.isActive(id); i++) await new Promise((r) => setTimeout(r, 10));
};
/** Every read route of one task. */
const reads = (id: string) => [
  `/v1/tasks/${id}`,
  `/v1/tasks/${id}/events`,
  `/v1/tasks/${id}/steps/1`,
  `/v1/tasks/${id}/steps/1/screenshot`,
  `/v1/tasks/${id}/artifacts`,
  `/v1/tasks/${id}/artifacts/report.txt`,
];

describe('tenant isolation of task reads', () => {
  let acmeTask = '';
  let globexTask = '';
  before(async () => {
    acmeTask = await start(await member('acme'));
    await settle(acmeTask);
    globexTask = await start(await member('globex'));
    await settle(globexTask);
    await Promise.all([storeArtifact(acmeTask), storeArtifact(globexTask)]);
  });

  it('records the starting tenant and actor on the task row', async () => {
    const row = await repository.getTask(acmeTask);
    assert.equal(row?.tenant, 'acme');
    assert.equal(row?.actor, 'tenant:acme/tester');
    assert.equal((await repository.getTask(globexTask))?.tenant, 'globex');
    assert.equal(await repository.getTask(acmeTask, 'globex'), null);
  });

  it("answers 404, exactly as for an unknown id, on every read route of another tenant's task", async () => {
    const globex = await member('globex');
    const unknown = '00000000-0000-4000-8000-00000000ffff';
    for (const [index, path] of reads(acmeTask).entries()) {
      const foreign = await call('GET', path, globex);
      assert.equal(foreign.status, 404, path);
      const missing = await call('GET', reads(unknown)[index] as string, globex);
      const foreignBody = (await foreign.json()) as any;
      const missingBody = (await missing.json()) as any;
      assert.equal(foreignBody.error.code, 'NOT_FOUND', path);
      assert.equal(
        foreignBody.error.message.replace(acmeTask, '<id>'),
        missingBody.error.message.replace(unknown, '<id>'),
      );
    }
  });

  it('serves a tenant its own task on every read route', async () => {
    const acme = await member('acme');
    for (const path of reads(acmeTask)) {
      const response = await call('GET', path, acme);
      assert.equal(response.status, 200, path);
      await response.body?.cancel();
    }
  });

  it("lists only the caller's tenant, filtered before paging", async () => {
    for (const [tenant, id] of [
      ['acme', acmeTask],
      ['globex', globexTask],
      ['initech', null],
    ] as const) {
      const response = await call('GET', '/v1/tasks?limit=1', await member(tenant));
      const body = (await response.json()) as any;
      assert.equal(body.total, id ? 1 : 0, tenant);
      assert.deepEqual(
        body.tasks.map((task: any) => task.trace_id),
        id ? [id] : [],
        tenant,
      );
    }
  });

  it("lets the admin scope read every tenant's tasks", async () => {
    const token = await admin();
    for (const path of [...reads(acmeTask), ...reads(globexTask)]) {
      const response = await call('GET', path, token);
      assert.equal(response.status, 200, path);
      await response.body?.cancel();
    }
    const list = (await (await call('GET', '/v1/tasks', token)).json()) as any;
    assert.equal(list.total, 2);
  });

  it("refuses to abort another tenant's task (404) and leaves it running; admin can abort it", async () => {
    hold = true;
    try {
      const held = await start(await member('acme'));
      const refused = await call('POST', `/v1/tasks/${held}/abort`, await member('globex'));
      assert.equal(refused.status, 404);
      assert.equal(tasks.isActive(held), true);
      const aborted = await call('POST', `/v1/tasks/${held}/abort`, await admin());
      assert.equal(aborted.status, 202);
      await settle(held);
      assert.equal((await repository.getTask(held))?.status, 'aborted');
    } finally {
      hold = false;
    }
  });

  it('lets the owning tenant abort its own task', async () => {
    hold = true;
    try {
      const acme = await member('acme');
      const held = await start(acme);
      assert.equal((await call('POST', `/v1/tasks/${held}/abort`, acme)).status, 202);
      await settle(held);
      assert.equal((await repository.getTask(held))?.status, 'aborted');
    } finally {
      hold = false;
    }
  });

  it('keeps a read-only token of the same tenant working (tasks:read is enough)', async () => {
    const scopes: Scope[] = ['tasks:read'];
    const response = await call('GET', `/v1/tasks/${acmeTask}`, await auth.token(scopes, 'acme'));
    assert.equal(response.status, 200);
  });
});

describe('task tenancy with auth off (loopback)', () => {
  it('puts tasks in the default tenant and shows every tenant to the local caller', async () => {
    const open = createApp({
      tasks,
      repository,
      logger: silentLogger,
      defaultMaxSteps: 5,
      describe: () => ({ model: { name: 'tenancy', replay: true }, jail: { url: 'x' } }),
    });
    const started = await open.request('/v1/tasks', {
      method: 'POST',
      body: JSON.stringify({ instruction: 'local' }),
    });
    const { trace_id: id } = (await started.json()) as { trace_id: string };
    await settle(id);
    assert.equal((await repository.getTask(id))?.tenant, 'default');
    assert.equal((await repository.getTask(id))?.actor, 'tenant:default/local');
    const list = (await (await open.request('/v1/tasks?limit=500')).json()) as any;
    const rows = await Promise.all(
      list.tasks.map((task: any) => repository.getTask(task.trace_id)),
    );
    const tenants = new Set(rows.map((row) => row?.tenant));
    assert.ok(tenants.has('acme') && tenants.has('globex') && tenants.has('default'));
  });
});

describe('waits on a task’s screen', () => {
  it('need the admin scope: a tenant token cannot watch any task’s screen', async () => {
    const watched: (string | undefined)[] = [];
    const waits: WaitService = {
      start(input) {
        watched.push(input.task_id);
        return { id: 'w1', outcome: new Promise(() => undefined) };
      },
      view: () => ({ wait_id: 'w1', status: 'watching' }),
      cancel: () => false,
    };
    const withWaits = createApp({
      tasks,
      repository,
      logger: silentLogger,
      defaultMaxSteps: 5,
      describe: () => ({ model: { name: 'tenancy', replay: true }, jail: { url: 'x' } }),
      auth: { verifier: auth.verifier },
      waits,
    });
    const acmeTask = await start(await member('acme'));
    await settle(acmeTask);
    const wait = async (token: string) =>
      withWaits.request('/v1/waits', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          conditions: [{ type: 'text_contains', text: 'x' }],
          task_id: acmeTask,
        }),
      });
    assert.equal((await wait(await member('acme'))).status, 403);
    assert.equal((await wait(await member('globex'))).status, 403);
    assert.deepEqual(watched, []);
    assert.equal((await wait(await admin())).status, 202);
    assert.deepEqual(watched, [acmeTask]);
  });
});
