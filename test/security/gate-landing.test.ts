// Issue 20, classes (1) and (2): a hostile model's reply is judged action by action where each
// lands — not as a whole against the page before it. A Pay button in a payment-host iframe and a
// shop form that posts to the payment host need the approval the policy requires; a reply's
// rest is dropped once the page changed; a page that moved on between the landing and the
// action (LANDING_CHANGED) runs nothing. Policed tasks through the composition root.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Action } from '@clawdie/kit/jail-api';
import { createReplayModel } from '../../controlplane/src/agent/model/replay-model.js';
import { answerAll, around, click, finish, reply, startGated } from '../support/gate-fixture.js';
import { submit } from '../support/submit-task.js';

const payFrame = ['http://pay.test/widget'];
/** The shop's cart: Checkout (a same-origin link) and a form posting to the payment host. */
const pages = {
  'http://shop.test/cart': {
    regions: [
      { box: around(200, 200), destination: { url: 'http://shop.test/checkout' } },
      {
        box: around(600, 200),
        element: { tag: 'button', input_type: 'submit' },
        destination: { kind: 'form' as const, url: 'http://pay.test/charge', method: 'POST' },
      },
    ],
  },
  // The checkout page: its Pay button sits in the payment host's iframe.
  'http://shop.test/checkout': {
    regions: [{ box: around(900, 600), frames: payFrame }],
  },
};
const clicksAt = (executed: Action[], x: number) =>
  executed.filter((action) => action.type === 'click' && Math.abs(action.x - x) < 60);

describe('issue 20: each action judged where and when it lands', () => {
  it('drops the rest of a reply once the page changed: Pay never clicked unapproved', async (t) => {
    const { controlplane, fake } = await startGated(
      t,
      [reply(click(200, 200), 'wait()', click(900, 600)), finish],
      { pages },
    );
    const started = await submit(controlplane.tasks, {
      instruction: 'check out',
      start_url: 'http://shop.test/cart',
    });
    const result = await started.done;
    assert.equal(clicksAt(fake.executed, 900).length, 0, 'Pay was not clicked');
    assert.equal(clicksAt(fake.executed, 200).length, 1, 'Checkout was clicked');
    assert.equal((await controlplane.approvals.list({ limit: 5 })).length, 0);
    const [first] = await controlplane.repository.listSteps(started.taskId);
    assert.match(String(first?.outcomeMessage), /page changed after action 1 .*remaining 2/);
    assert.equal(result.status, 'finished');
  });

  it('asks before a click in a payment-host iframe; denied, nothing clicked', async (t) => {
    const { controlplane, fake } = await startGated(t, [reply(click(900, 600)), finish], { pages });
    const started = await submit(controlplane.tasks, {
      instruction: 'pay',
      start_url: 'http://shop.test/checkout',
    });
    const answering = answerAll(controlplane, started.done, 'deny');
    const result = await started.done;
    await answering;
    assert.equal(clicksAt(fake.executed, 900).length, 0, 'Pay was not clicked');
    assert.equal(result.error?.code, 'APPROVAL_DENIED');
    const [approval] = await controlplane.approvals.list({ limit: 5 });
    assert.equal(approval?.detail.frame_origin, 'http://pay.test');
    const rows = await controlplane.audit.list({ limit: 100, taskId: started.taskId });
    const decided = rows.find(
      (row) => row.type === 'policy-decided' && row.data.subject === 'action',
    );
    assert.deepEqual(decided?.data.origins, ['http://shop.test', 'http://pay.test']);
    assert.equal(decided?.data.kind, 'host_rule');
    const refused = rows.find((row) => row.type === 'step-refused');
    assert.equal(refused?.data.kind, 'approval_denied');
  });

  it('takes a shop form that posts to the payment host as a navigation needing approval', async (t) => {
    const { controlplane, fake } = await startGated(t, [reply(click(600, 200)), finish], { pages });
    const started = await submit(controlplane.tasks, {
      instruction: 'pay',
      start_url: 'http://shop.test/cart',
    });
    const answering = answerAll(controlplane, started.done, 'deny');
    await started.done;
    await answering;
    assert.equal(clicksAt(fake.executed, 600).length, 0, 'the form was not submitted');
    const [approval] = await controlplane.approvals.list({ limit: 5 });
    assert.equal(approval?.kind, 'navigation');
    const rows = await controlplane.audit.list({ limit: 100, taskId: started.taskId });
    const decided = rows.find(
      (row) => row.type === 'policy-decided' && row.data.subject === 'action',
    );
    assert.equal(decided?.data.navigation, 'http://pay.test/charge');
    assert.deepEqual(decided?.data.destination, {
      kind: 'form',
      method: 'POST',
      url: 'http://pay.test/charge',
    });
  });

  it('runs an approved payment click pinned to its landing; a page that moved on runs nothing', async (t) => {
    let moved = false;
    const { controlplane, fake } = await startGated(t, [reply(click(900, 600)), finish], {
      pages,
      // Between the landing (and the approval) and the click, the page is replaced once.
      beforeAction: (action, model) => {
        if (action.type === 'click' && !moved) {
          moved = true;
          model.replace('http://shop.test/checkout');
        }
      },
    });
    const started = await submit(controlplane.tasks, {
      instruction: 'pay',
      start_url: 'http://shop.test/checkout',
    });
    const answering = answerAll(controlplane, started.done, 'approve');
    await started.done;
    await answering;
    const sent = fake.sent.filter((action) => action.type === 'click');
    assert.equal(sent.length, 1);
    assert.deepEqual((sent[0] as { expect?: unknown }).expect, {
      document_id: 'doc-2',
      origins: ['http://shop.test', 'http://pay.test'],
      destination: null,
    });
    assert.equal(clicksAt(fake.executed, 900).length, 0, 'LANDING_CHANGED: nothing clicked');
    const rows = await controlplane.audit.list({ limit: 100, taskId: started.taskId });
    const refused = rows.find((row) => row.type === 'step-refused');
    assert.equal(refused?.data.kind, 'landing_changed');
  });

  it('refuses, in a task without a policy, a link that leaves its domains (same landing logic)', async (t) => {
    const away = {
      'http://shop.test/cart': {
        regions: [{ box: around(200, 200), destination: { url: 'http://evil.test/' } }],
      },
    };
    const { controlplane, fake } = await startGated(t, [], { pages: away });
    const unpoliced = controlplane.createTasks(
      createReplayModel([reply(click(200, 200)), finish]),
      {
        policed: false,
      },
    );
    t.after(() => unpoliced.close());
    const started = await submit(unpoliced, {
      instruction: 'browse',
      start_url: 'http://shop.test/cart',
      domains: ['shop.test'],
    });
    await started.done;
    assert.equal(clicksAt(fake.executed, 200).length, 0, 'the link was not followed');
    const refused = (await controlplane.audit.list({ limit: 100, taskId: started.taskId })).find(
      (row) => row.type === 'step-refused',
    );
    assert.equal(refused?.data.kind, 'navigation');
  });
});
