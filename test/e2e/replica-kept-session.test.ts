// Issue 27: a follow-up of a kept browser (`session_id`) reaches the replica that keeps it, from
// any replica. Two controlplanes on one PostgreSQL database serve HTTP on loopback; A keeps a real
// Chromium after a task typed into a page, and the follow-up POSTed to B continues on that page.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Principal } from '../../controlplane/src/governance/auth/scopes.js';
import { requires } from '../support/capabilities.js';
import { createPerTaskScriptModel } from '../support/per-task-script-model.js';
import { ADMIN_TOKEN, startReplicaPair } from './support/replica-pair.js';
import { until } from './takeover-supervisor.js';

/** Every task clicks into the page's one text field, types `kept` and finishes. */
const model = createPerTaskScriptModel([
  "Action: click(start_box='<|box_start|>(500,500)<|box_end|>')",
  "Action: type(content='kept')",
  "Action: finished(content='typed')",
]);
const principal: Principal = {
  tenant: 'default',
  subject: 'kept-test',
  scopes: ['tasks:run', 'tasks:read'],
  via: 'token',
};

describe('follow-ups of a kept browser from any replica', requires('postgres', 'chromium'), () => {
  let pair: Awaited<ReturnType<typeof startReplicaPair>>;
  let sessionId = '';
  const json = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
  const startViaB = (body: Record<string, unknown>) =>
    fetch(`${pair.urlB}/v1/tasks`, { method: 'POST', headers: json, body: JSON.stringify(body) });
  /** The session id a task of A kept its browser under (its `browser-kept` audit row). */
  const keptBy = async (taskId: string) => {
    const rows = await pair.a.audit.list({ taskId, limit: 100 });
    const row = rows.find((entry) => entry.type === 'browser-kept');
    return (row?.data as { session_id?: string } | undefined)?.session_id ?? '';
  };

  before(async () => {
    pair = await startReplicaPair({ model, slotsA: 2 });
    const input = {
      instruction: 'type into the field and keep the browser',
      start_url: `${pair.site.url}/form`,
      keep_session: true,
    };
    const started = await pair.a.tasks.start(await pair.a.tasks.admit(input, principal));
    const result = await started.done;
    assert.equal(result.status, 'finished', JSON.stringify(result));
    sessionId = result.session_id ?? '';
    assert.match(sessionId, /^ks_/, 'A kept its browser');
  });
  after(async () => {
    await pair?.close();
  });

  it('runs a follow-up POSTed to B in the browser A keeps, on the page the first task left', async () => {
    const started = await startViaB({
      instruction: 'type again',
      session_id: sessionId,
      keep_session: true,
    });
    assert.equal(started.status, 202, await started.clone().text());
    const taskId = ((await started.json()) as { trace_id: string }).trace_id;
    assert.ok(pair.seenByA.includes('POST /v1/tasks'), 'B forwarded the start to A');
    const task = async () => await pair.a.repository.getTask(taskId);
    await until('the follow-up ended', async () => Boolean((await task())?.endedAt), 60_000);
    assert.equal((await task())?.status, 'finished', (await task())?.errorMessage ?? '');
    // The field still held the first task's text: the follow-up typed after it.
    assert.ok(
      pair.site.requests.includes('/typed?v=keptkept'),
      `the page kept its state: ${pair.site.requests.join(' ')}`,
    );
    // The audit row is appended after the task's end is stored: wait for it rather than race it.
    await until(
      'A audited the kept browser',
      async () => /^ks_/.test(await keptBy(taskId)),
      10_000,
    );
    sessionId = await keptBy(taskId);
  });

  it('names the replica that holds the session where a follow-up cannot be forwarded (MCP)', async () => {
    const input = { instruction: 'type again', session_id: sessionId };
    await assert.rejects(pair.b.tasks.admit(input, principal), (error: Error) => {
      assert.equal((error as { code?: string }).code, 'SESSION_ON_OTHER_REPLICA');
      assert.match(error.message, new RegExp(pair.urlA.replace(/\./g, '\\.')));
      return true;
    });
  });

  it('says the replica that held the session is gone once A has stopped', async () => {
    await pair.closeA();
    await pair.a.close();
    const answer = await startViaB({ instruction: 'type again', session_id: sessionId });
    assert.equal(answer.status, 404, await answer.clone().text());
    const body = (await answer.json()) as { error: { code: string; message: string } };
    assert.equal(body.error.code, 'SESSION_NOT_FOUND');
    assert.match(body.error.message, /which is gone/);
  });
});
