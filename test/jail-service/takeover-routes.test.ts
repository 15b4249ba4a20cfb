// POST /input and GET /signals on a real jail-service (real Chromium, device scale factor 2)
// against the local login-wall site: the detectors see the password, one-time-code and CAPTCHA
// shapes, and relayed supervisor input logs in through fractions of the frame.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type InputReport,
  type PageElement,
  type PageSignals,
  pageSignalsSchema,
} from '@clawdie/kit/jail-api';
import { requires } from '../support/capabilities.js';
import { type LoginWallSite, startLoginWallSite } from '../support/login-wall-site.js';
import { startTestJail, type TestJail } from './jail-harness.js';

describe('jail-service takeover routes (real Chromium, DPR 2)', requires('chromium'), () => {
  let jail: TestJail;
  let site: LoginWallSite;
  before(async () => {
    site = await startLoginWallSite();
    jail = await startTestJail({ CLAWDIE_JAIL_DEVICE_SCALE_FACTOR: '2' });
  });
  after(async () => {
    await jail?.close();
    await site?.close();
  });

  const go = async (path: string) => {
    const response = await jail.client.run([{ type: 'navigate', url: `${site.url}${path}` }]);
    assert.equal(response.results[0]?.status, 'ok');
  };
  const signals = async (query = ''): Promise<PageSignals> => {
    const response = await jail.client.fetch(`/signals${query}`);
    assert.equal(response.status, 200);
    return pageSignalsSchema.parse(await response.json());
  };
  const input = async (events: unknown[]): Promise<InputReport> => {
    const response = await jail.client.fetch('/input', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ events }),
    });
    const body = await response.json();
    assert.equal(response.status, 200, JSON.stringify(body));
    return body as InputReport;
  };
  /** A click at the centre of `element`, as fractions of the 1280×800 viewport. */
  const clickOn = (element: PageElement | undefined) => {
    assert.ok(element, 'element present');
    const x = (element.box.x + element.box.width / 2) / 1280;
    const y = (element.box.y + element.box.height / 2) / 800;
    return [
      { type: 'mouse', action: 'down', x, y, button: 'left', click_count: 1 },
      { type: 'mouse', action: 'up', x, y, button: 'left', click_count: 1 },
    ];
  };
  const typeKeys = (text: string) =>
    [...text].flatMap((char) => [
      { type: 'key', action: 'down', key: char, text: char },
      { type: 'key', action: 'up', key: char },
    ]);

  it('refuses both routes without the bearer token', async () => {
    assert.equal((await jail.client.fetch('/signals', {}, null)).status, 401);
    const post = await jail.client.fetch('/input', { method: 'POST', body: '{}' }, null);
    assert.equal(post.status, 401);
  });

  it('sees a password field on a new origin, and not once the origin is known', async () => {
    await go('/login');
    const seen = await signals();
    assert.equal(seen.password.count, 1);
    assert.deepEqual(seen.password.origins, [site.url]);
    assert.equal(seen.password.new_origin, true);
    assert.equal(seen.one_time_code, 0);
    assert.deepEqual(seen.captchas, []);
    const known = await signals(`?known_origins=${encodeURIComponent(site.url)}`);
    assert.equal(known.password.new_origin, false);
  });

  it('sees the one-time-code input and the three CAPTCHA frames', async () => {
    await go('/2fa');
    assert.equal((await signals()).one_time_code, 1);
    await go('/captcha');
    const captcha = await signals();
    assert.deepEqual([...captcha.captchas].sort(), ['hcaptcha', 'recaptcha', 'turnstile']);
    assert.ok(captcha.frames_checked >= 4, `frames checked: ${captcha.frames_checked}`);
    assert.equal(JSON.stringify(captcha).includes(site.password), false);
  });

  it('logs in through relayed mouse, keys and pasted text at DPR-correct coordinates', async () => {
    await go('/login');
    const { elements } = await jail.client.elements();
    const user = elements.find((element) => element.name === 'username');
    const password = elements.find((element) => element.input_type === 'password');
    const first = await input([...clickOn(user), ...typeKeys(site.username)]);
    assert.deepEqual(first.targets, { password: 0, text: 10, other: 0 });
    const second = await input([
      ...clickOn(password),
      { type: 'text', text: site.password },
      { type: 'key', action: 'down', key: 'Enter' },
      { type: 'key', action: 'up', key: 'Enter' },
    ]);
    assert.deepEqual(second.targets.password, 3);
    assert.equal(JSON.stringify(second).includes(site.password), false);
    await waitForPath('/2fa');
    const code = (await jail.client.elements()).elements.find((e) => e.name === 'code');
    await input([...clickOn(code), ...typeKeys(site.otp)]);
    await input([
      { type: 'key', action: 'down', key: 'Enter' },
      { type: 'key', action: 'up', key: 'Enter' },
    ]);
    await waitForPath('/account');
    assert.equal(site.issuedCookies().length, 1);
  });

  const fieldOn = async (name: string) =>
    (await jail.client.elements()).elements.find((element) => element.name === name);
  const posted = async () => {
    const before = site.typed().length;
    const done = (await jail.client.elements()).elements.find((e) => e.text === 'Done');
    await input(clickOn(done));
    const deadline = Date.now() + 10_000;
    while (site.typed().length === before && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const form = site.typed()[before];
    assert.ok(form, 'the form was posted');
    return form;
  };

  it('runs two bursts sent at once one after the other, never interleaved', async () => {
    await go('/typed');
    const [first, second] = [await fieldOn('first'), await fieldOn('second')];
    // Each burst clicks its own field and types into it; interleaved, keys land in the other field.
    const reports = await Promise.all([
      input([...clickOn(first), ...typeKeys('a'.repeat(60))]),
      input([...clickOn(second), ...typeKeys('b'.repeat(60))]),
    ]);
    assert.deepEqual(
      reports.map((report) => report.dispatched),
      [122, 122],
    );
    const form = await posted();
    assert.equal(form.first, 'a'.repeat(60));
    assert.equal(form.second, 'b'.repeat(60));
  });

  it('stops a burst whose caller gave up, and lets go of the keys it held', async () => {
    await go('/typed-slow');
    const [first, second] = [await fieldOn('first'), await fieldOn('second')];
    // 98 keys at 25 ms each on the page: about 2.5 s, abandoned after 0.4 s with Shift held.
    const caller = new AbortController();
    const abandoned = jail.client
      .fetch('/input', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          events: [
            ...clickOn(first),
            { type: 'key', action: 'down', key: 'Shift' },
            ...typeKeys('A'.repeat(98)),
          ],
        }),
        signal: caller.signal,
      })
      .catch((error: Error) => error.name);
    await new Promise((resolve) => setTimeout(resolve, 400));
    caller.abort();
    assert.equal(await abandoned, 'AbortError');
    // The next burst waits for the abandoned one to stop; Shift is no longer held.
    await input([...clickOn(second), ...typeKeys('b')]);
    const form = await posted();
    assert.ok(
      form.first.length > 0 && form.first.length < 60,
      `typed ${form.first.length} of 98 before the caller gave up`,
    );
    assert.equal(form.second, 'b');
    assert.doesNotMatch(form.keys, /shift\+b/, form.keys);
    assert.match(form.keys, /shift\+A/, 'Shift was held while the first burst ran');
  });

  async function waitForPath(path: string) {
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const state = await jail.client.state();
      if (new URL(state.url).pathname === path && !state.loading) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.fail(`page never reached ${path}: ${(await jail.client.state()).url}`);
  }
});
