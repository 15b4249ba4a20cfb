// Review of the landing gate, against real Chromium: what POST /landing reported let a click or a
// key land elsewhere than judged. A payment page in an <object> or <embed> was reported as the
// shop (only iframe/frame were frames); Enter in a field used the form's own action, not its
// default button's `formaction`/`formmethod`; a click on a label was not followed to the control
// it clicks. Each case beside a control that was already right.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LandingResponse } from '@clawdie/kit/jail-api';
import { requires } from '../support/capabilities.js';
import { assertAllOk, type JailClient } from './jail-harness.js';
import { landing, type Sites, withLandingJail } from './landing-pages.js';

const origins = (reply: LandingResponse) => reply.target?.frames.map((frame) => frame.origin);
const form = (url: string, method: string) => ({ kind: 'form', url, method, new_window: false });

describe('POST /landing: the review’s bypasses (real Chromium)', requires('chromium'), () => {
  let sites: Sites;
  let client: JailClient;
  withLandingJail({}, (fixture) => ({ sites, client } = fixture));
  const open = async (url: string) => assertAllOk(await client.run([{ type: 'navigate', url }]));
  const click = (x: number, y: number) => landing(client, { type: 'click', x, y });
  /** Focuses the field at (x, y) and asks where Enter lands. */
  const enterIn = async (x: number, y: number) => {
    assertAllOk(await client.run([{ type: 'click', x, y }]));
    return (await landing(client, { type: 'press', key: 'Enter' })).target?.destination;
  };

  it('reports the iframe’s origin (control, already right)', async () => {
    await open(`${sites.a}/frames`);
    assert.deepEqual(origins(await click(480, 30)), [sites.a, sites.b]);
  });

  for (const owner of ['object', 'embed']) {
    it(`reports a payment page in an <${owner}> as its own origin, same site and another`, async () => {
      await open(`${sites.a}/${owner}`);
      const same = await click(50, 30);
      assert.deepEqual(origins(same), [sites.a, sites.b]);
      assert.equal(same.target?.element?.tag, 'button');
      assert.deepEqual(same.target?.destination, form(`${sites.b}/pay`, 'POST'));
      const foreign = await click(50, 180);
      assert.deepEqual(origins(foreign), [sites.a, sites.c]);
      assert.deepEqual(foreign.target?.destination, form(`${sites.c}/pay`, 'POST'));
    });
  }

  it('takes Enter in a field to where its form’s default button submits', async () => {
    await open(`${sites.a}/default-button`);
    assert.deepEqual(await enterIn(50, 25), form(`${sites.b}/charge`, 'POST'));
    // The default button is attached by `form=`, outside the form.
    assert.deepEqual(await enterIn(50, 75), form(`${sites.b}/charge`, 'POST'));
    // Control: a type=button is no submit button; the form's own action counts.
    assert.deepEqual(await enterIn(50, 125), form(`${sites.a}/search`, 'GET'));
  });

  it('follows a click on a label to the control it clicks', async () => {
    await open(`${sites.a}/label`);
    assert.deepEqual((await click(50, 30)).target?.destination, form(`${sites.b}/charge`, 'POST'));
    const wrapping = await click(50, 80);
    assert.deepEqual(wrapping.target?.destination, form(`${sites.b}/wrapped`, 'POST'));
    // Control: a label of a text field only focuses it.
    assert.equal((await click(50, 130)).target?.destination, null);
  });
});
