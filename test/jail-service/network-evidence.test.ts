// Issue 23 (3): POST /actions reports the requests its batch caused, from real Chromium — a fetch
// POST and its 500, a form POST's 303 and the 200 after it, a network error, a request inside an
// out-of-process iframe, query values dropped, at most 50 entries with the rest counted — and
// nothing when the service runs with CLAWDIE_JAIL_EVIDENCE=off.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { NetworkEntry, NetworkEvidence } from '@clawdie/kit/jail-api';
import { requires } from '../support/capabilities.js';
import { startEvidenceTraps } from '../support/evidence-traps-site.js';
import { htmlPage, type StaticSite } from '../support/static-site.js';
import { assertAllOk, startTestJail, type TestJail } from './jail-harness.js';

const env = { CLAWDIE_JAIL_NAVIGATION_TIMEOUT_MS: '5000', CLAWDIE_JAIL_ACTION_TIMEOUT_MS: '5000' };

describe('network evidence of an action batch (real Chromium)', requires('chromium'), () => {
  let site: StaticSite;
  let jail: TestJail;
  before(async () => {
    site = await startEvidenceTraps();
    jail = await startTestJail(env);
  });
  after(async () => {
    await jail?.close();
    await site?.close();
  });

  /** Opens `path`, clicks the page's one button, returns the click's evidence. */
  async function clickOn(path: string, on = jail): Promise<NetworkEvidence | undefined> {
    assertAllOk(await on.client.run([{ type: 'navigate', url: `${site.url}${path}` }]));
    const response = await on.client.run([{ type: 'click', x: 300, y: 300 }]);
    assertAllOk(response);
    return response.evidence;
  }

  it('reports a fetch POST answered 500, its query values dropped', async () => {
    const evidence = await clickOn('/pay-500');
    const post = evidence?.entries.find((entry) => entry.method === 'POST');
    assert.ok(post, JSON.stringify(evidence));
    assert.equal(post.url, `${site.url}/api/pay?card=&cvc=`);
    assert.equal(post.status, 500);
    assert.equal(post.kind, 'fetch');
    assert.equal(post.main_frame, true);
    assert.ok(post.duration_ms !== null, JSON.stringify(post));
    assert.equal(JSON.stringify(evidence).includes('4111'), false);
  });

  it('reports a form POST answered 303 and the document it led to', async () => {
    const evidence = await clickOn('/order');
    const [post, thanks] = evidence?.entries ?? [];
    assert.deepEqual(
      [post?.method, post?.kind, post?.status, thanks?.method, thanks?.kind, thanks?.status],
      ['POST', 'form', 303, 'GET', 'document', 200],
      JSON.stringify(evidence),
    );
    assert.equal(thanks?.url, `${site.url}/order/thanks`);
    // A document's body is read to its end: its bytes on the wire are known.
    assert.ok((thanks?.bytes ?? 0) > 0 && thanks?.duration_ms !== null, JSON.stringify(thanks));
  });

  it('reports a POST that got no response with the network error', async () => {
    const evidence = await clickOn('/offline');
    const post = evidence?.entries.find((entry) => entry.method === 'POST');
    assert.equal(post?.status, null, JSON.stringify(evidence));
    assert.match(post?.error ?? '', /ERR_/);
  });

  it('reports nothing when the click sent nothing, and the navigation itself', async () => {
    const opened = await jail.client.run([
      { type: 'navigate', url: `${site.url}/claim?session=s3cr3t` },
    ]);
    assert.deepEqual(
      opened.evidence?.entries.map((entry) => [entry.method, entry.url, entry.status]),
      [['GET', `${site.url}/claim?session=`, 200]],
    );
    const clicked = await jail.client.run([{ type: 'click', x: 300, y: 300 }]);
    assert.deepEqual(clicked.evidence, { entries: [], dropped: 0 });
  });

  it('keeps the newest 50 requests of a batch and counts the others', async () => {
    const evidence = await clickOn('/many');
    assert.equal(evidence?.entries.length, 50, JSON.stringify(evidence?.dropped));
    assert.equal(evidence?.dropped, 10);
  });

  it('sees a POST sent from inside an out-of-process iframe', async () => {
    const framed = site.url.replace('127.0.0.1', 'localhost');
    site.set(
      '/framed',
      htmlPage(
        'framed',
        `<iframe src="${framed}/pay-500" style="position:fixed;inset:0;width:100%;height:100%;border:0"></iframe>`,
      ),
    );
    assertAllOk(await jail.client.run([{ type: 'navigate', url: `${site.url}/framed` }]));
    // The frame's own load is part of the navigation; its POST comes with the click. A click
    // right after the load may reach the fresh out-of-process frame before it takes input: again.
    let post: NetworkEntry | undefined;
    let evidence: NetworkEvidence | undefined;
    for (let attempt = 0; attempt < 3 && !post; attempt++) {
      ({ evidence } = await jail.client.run([{ type: 'click', x: 300, y: 300 }]));
      post = evidence?.entries.find((entry) => entry.method === 'POST');
    }
    assert.equal(post?.url, `${framed}/api/pay?card=&cvc=`, JSON.stringify(evidence));
    assert.equal(post?.status, 500);
    assert.equal(post?.main_frame, false);
  });

  it('reports no evidence with CLAWDIE_JAIL_EVIDENCE=off', async () => {
    const off = await startTestJail({ ...env, CLAWDIE_JAIL_EVIDENCE: 'off' });
    try {
      assert.equal(await clickOn('/pay-500', off), undefined);
    } finally {
      await off.close();
    }
  });
});
