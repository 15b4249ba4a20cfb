// Issue 20, classes (3), (4) and (7): an approved secret goes only into the field it is for (the
// focused field's frame origin and kind, checked before a supervisor is asked and again by the
// jail-service), and the audit's account is exact: each refusal with its true kind, a row for
// a reply the reply limit refused, admission rows with the task id, typed text bounded (length
// and digest) and no row over a few hundred bytes of model-controlled content.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FakeRegion } from '../support/fake-landing.js';
import { answerAll, finish, reply, secretSet, startGated } from '../support/gate-fixture.js';
import { submit } from '../support/submit-task.js';

const whole = { x: 0, y: 0, width: 1280, height: 800 };
const value = 'Correct-Horse-7731';
/** A login page whose one field (filling the page) is `field`. */
const login = (field: FakeRegion) => ({ 'http://shop.test/login': { regions: [field] } });
const typeSecret = reply(
  "click(start_box='<|box_start|>(500,400)<|box_end|>')",
  "type(content='{{secret:pw}}')",
);

async function runLogin(
  t: import('node:test').TestContext,
  field: FakeRegion,
  options: { blur?: boolean } = {},
) {
  const gated = await startGated(t, [typeSecret, finish], {
    pages: login(field),
    ...(options.blur
      ? { beforeAction: (action, model) => action.type === 'type' && model.blur() }
      : {}),
  });
  await secretSet(gated.controlplane.dataDir, 'pw', value);
  const started = await submit(gated.controlplane.tasks, {
    instruction: 'sign in',
    start_url: 'http://shop.test/login',
    credential_mode: 'supervisor_approved',
  });
  const answering = answerAll(gated.controlplane, started.done, 'approve');
  const result = await started.done;
  await answering;
  const rows = await gated.controlplane.audit.list({ limit: 200, taskId: started.taskId });
  return { ...gated, started, result, rows };
}

describe('issue 20: a secret only into its field', () => {
  it('refuses a secret into a plain text field before asking anyone: nothing typed', async (t) => {
    const { controlplane, fake, rows } = await runLogin(t, {
      box: whole,
      element: { tag: 'input', input_type: 'text', field: 'text' },
    });
    assert.deepEqual(fake.typed, []);
    assert.equal(
      (await controlplane.approvals.list({ limit: 5 })).length,
      0,
      'no supervisor asked',
    );
    const refused = rows.find((row) => row.type === 'step-refused');
    assert.equal(refused?.data.kind, 'credential_field');
    assert.match(String(refused?.data.message), /only be typed into password fields/);
  });

  it('refuses a secret into another origin’s iframe: nothing typed', async (t) => {
    // The payment host's frame: within the task's domains (its click is approved), not the
    // secret's (shop.test only).
    const { controlplane, fake, rows } = await runLogin(t, {
      box: whole,
      frames: ['http://pay.test/login-frame'],
      element: { tag: 'input', input_type: 'password', field: 'password' },
    });
    assert.deepEqual(fake.typed, []);
    const asked = (await controlplane.approvals.list({ limit: 5 })).map((record) => record.kind);
    assert.ok(!asked.includes('credential'), `no supervisor asked about the secret: ${asked}`);
    const refused = rows.find((row) => row.type === 'step-refused');
    assert.equal(refused?.data.kind, 'credential');
  });

  it('types into the password field with the jail guard set; the row names the origin', async (t) => {
    const { controlplane, fake, rows } = await runLogin(t, {
      box: whole,
      element: { tag: 'input', input_type: 'password', field: 'password' },
    });
    assert.equal(fake.typed.length, 1);
    assert.deepEqual(
      { origin: fake.typed[0]?.origin, field: fake.typed[0]?.field },
      { origin: 'http://shop.test', field: 'password' },
    );
    const sent = fake.sent.find((action) => action.type === 'type');
    assert.deepEqual(sent?.type === 'type' ? sent.secret : null, {
      origins: ['http://shop.test'],
      fields: ['password'],
      autocomplete: [],
    });
    const [approval] = await controlplane.approvals.list({ limit: 5 });
    assert.deepEqual(
      [approval?.detail.frame_origin, approval?.detail.field],
      ['http://shop.test', 'password'],
    );
    const typed = rows.find((row) => row.type === 'credential-typed');
    assert.equal(typed?.data.origin, 'http://shop.test');
    assert.equal(fake.typed[0]?.text, value);
    assert.ok(!JSON.stringify(rows).includes(value), 'the value is never audited');
  });

  it('stops when the jail finds the focus moved (FOCUS_MISMATCH): audited, nothing typed', async (t) => {
    const { fake, rows } = await runLogin(
      t,
      { box: whole, element: { tag: 'input', input_type: 'password', field: 'password' } },
      { blur: true },
    );
    assert.deepEqual(fake.typed, []);
    const refused = rows.find((row) => row.type === 'credential-refused');
    assert.equal(refused?.data.code, 'FOCUS_MISMATCH');
    assert.equal(refused?.data.origin, 'http://shop.test');
    assert.equal(rows.find((row) => row.type === 'step-refused')?.data.kind, 'credential_field');
  });
});

describe('issue 20: an exact audit', () => {
  it('audits a reply the reply limit refused, and admission under the task id', async (t) => {
    const many = reply(...Array.from({ length: 21 }, () => 'wait()'));
    const { controlplane } = await startGated(t, [many, finish], {});
    const started = await submit(controlplane.tasks, {
      instruction: 'x',
      start_url: 'http://shop.test/',
    });
    await started.done;
    const rows = await controlplane.audit.list({ limit: 100, taskId: started.taskId });
    const refused = rows.find((row) => row.type === 'step-refused');
    assert.equal(refused?.data.kind, 'reply_limit');
    const admitted = rows.find(
      (row) => row.type === 'policy-decided' && row.data.subject === 'task',
    );
    assert.equal(admitted?.data.decision, 'allow');
    await assert.rejects(
      controlplane.tasks.admit(
        { instruction: 'x', domains: ['evil.test'] },
        {
          tenant: 'default',
          subject: 'mallory',
          scopes: ['tasks:run'],
          via: 'token',
        },
      ),
    );
    const denied = (await controlplane.audit.list({ limit: 100 })).find(
      (row) => row.type === 'policy-decided' && row.data.decision === 'deny',
    );
    assert.ok(denied?.taskId, 'a refused admission names the id the task would have had');
  });

  it('keeps typed text as length and digest, and every row small', async (t) => {
    const pageSecret = 'hunter2-from-the-page';
    const long = 'A'.repeat(200_000);
    const { controlplane } = await startGated(
      t,
      [
        reply(`type(content='${pageSecret}')`),
        reply(`type(content='${long}')`),
        reply(`navigate(url='http://evil.test/${'x'.repeat(5000)}')`),
        finish,
      ],
      {},
    );
    const started = await submit(controlplane.tasks, {
      instruction: 'x',
      start_url: 'http://shop.test/',
    });
    await started.done;
    const rows = await controlplane.audit.list({ limit: 200, taskId: started.taskId });
    const text = JSON.stringify(rows);
    assert.ok(!text.includes(pageSecret), 'typed text is never audited');
    const executed = rows.filter((row) => row.type === 'action-executed');
    assert.deepEqual(
      executed.map((row) => (row.data.action as { chars?: number }).chars),
      [pageSecret.length, long.length],
    );
    const sizes = rows.map((row) => [row.type, Buffer.byteLength(JSON.stringify(row.data))]);
    const largest = Math.max(...sizes.map(([, size]) => Number(size)));
    assert.ok(largest < 800, `largest row ${largest} bytes: ${JSON.stringify(sizes)}`);
    assert.equal(rows.find((row) => row.type === 'step-refused')?.data.kind, 'navigation');
  });
});
