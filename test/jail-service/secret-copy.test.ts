// A secret typed into a field that is not a password field stays in that field, against a hostile
// model with real Chromium (review of issue 20): (a) select, copy, paste into another field — also
// with Ctrl held by a separate `keydown`; (b) double-click to select, then drag into another
// field; (c) leave the page, then `navigate_back` (Chromium restores a text field's value, and the
// mask went with the old document). After each, the secret is nowhere but in its masked field:
// not in the other field (the page reports its values in its title), not in the screenshot. The
// same moves on a password field pass through and carry nothing (Chromium's own protection), and
// ordinary text still copies.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createJsCodec } from '@clawdie/kit/images';
import type { Action, ActionsResponse, SecretGuard } from '@clawdie/kit/jail-api';
import { requires } from '../support/capabilities.js';
import { assertAllOk, type JailClient } from './jail-harness.js';
import { type Sites, withLandingJail } from './landing-pages.js';

interface Report {
  id: string;
  type?: string;
  value: string;
}

/** One word, so a double click selects all of it. */
const SECRET = 'Hunter2Secret9';
const codec = createJsCodec();

/** Lowest RGB value in a CSS-pixel region of a screenshot (DPR 1): < 60 where text is drawn. */
async function darkest(jpeg: Buffer, box: { x: number; y: number; w: number; h: number }) {
  const image = await codec.decode(jpeg);
  let min = 255;
  for (let y = box.y; y < box.y + box.h; y++)
    for (let x = box.x; x < box.x + box.w; x++)
      for (let c = 0; c < 3; c++)
        min = Math.min(min, image.data[(y * image.width + x) * image.channels + c] ?? 0);
  return min;
}

const secretType = (text: string, secret: SecretGuard): Action => ({ type: 'type', text, secret });
const hotkey = (...keys: string[]): Action => ({ type: 'hotkey', keys });
const click = (x: number, y: number): Action => ({ type: 'click', x, y });

describe(
  'a secret outside a password field stays in its field (real Chromium)',
  requires('chromium'),
  () => {
    let sites: Sites;
    let client: JailClient;
    withLandingJail({}, (fixture) => ({ sites, client } = fixture));
    const open = async (url: string) => assertAllOk(await client.run([{ type: 'navigate', url }]));
    const text = (origin: string) => ({
      origins: [origin],
      fields: ['text' as const],
      autocomplete: [],
    });
    const password = (origin: string) => ({
      origins: [origin],
      fields: ['password' as const],
      autocomplete: [],
    });
    // /login: `user` (10, 10, 300x40, 28px text), `pass` (password, 10, 60), `plain` (text, 50,
    // 200, 400x60, 40px). The other field the secret must not reach is `user`.
    const user = { x: 100, y: 30 };
    const userInside = { x: 16, y: 16, w: 280, h: 26 };
    const fieldAt = { plain: { x: 100, y: 230 }, pass: { x: 100, y: 80 } };

    /** What reached `user`: the page's input reports, then the pixels of its box. */
    async function assertUserEmpty(replies: ActionsResponse[]) {
      const reports = await client.titleJson<Report[]>();
      const reached = reports.filter((report) => report.id === 'user' && report.value !== '');
      assert.deepEqual(reached, [], 'the other field received text');
      const min = await darkest((await client.screenshot('?caret=hide')).jpeg, userInside);
      assert.ok(min > 150, `text drawn in the other field: darkest ${min}`);
      // The results, not the state: the fixture page itself logs its own field's value in its title.
      const results = replies.map((reply) => reply.results);
      assert.doesNotMatch(JSON.stringify(results), new RegExp(SECRET));
    }

    it('(a) select all, copy, paste elsewhere: the other field stays empty', async () => {
      await open(`${sites.a}/login`);
      assertAllOk(await client.run([click(fieldAt.plain.x, fieldAt.plain.y)]));
      assertAllOk(await client.run([secretType(SECRET, text(sites.a))]));
      const copy = await client.run([hotkey('ctrl', 'a'), hotkey('ctrl', 'c')]);
      const paste = await client.run([click(user.x, user.y), hotkey('ctrl', 'v')]);
      await assertUserEmpty([copy, paste]);
      assert.equal(copy.results[1]?.error?.code, 'ACTION_FAILED', 'the copy was not refused');

      // Ctrl held down by a `keydown` before the secret went in, `c` pressed later on its own.
      await open(`${sites.a}/login`);
      assertAllOk(await client.run([click(fieldAt.plain.x, fieldAt.plain.y)]));
      assertAllOk(await client.run([{ type: 'keydown', key: 'ctrl' }]));
      assertAllOk(await client.run([secretType(SECRET, text(sites.a))]));
      const held = await client.run([
        { type: 'press', key: 'a' },
        { type: 'press', key: 'x' },
      ]);
      const release = await client.run([{ type: 'keyup', key: 'ctrl' }]);
      const pasted = await client.run([click(user.x, user.y), hotkey('ctrl', 'v')]);
      await assertUserEmpty([held, release, pasted]);
      assert.equal(held.results[1]?.error?.code, 'ACTION_FAILED', 'the cut was not refused');
    });

    it('(b) double-click to select, drag into another field: the other field stays empty', async () => {
      await open(`${sites.a}/login`);
      assertAllOk(await client.run([click(fieldAt.plain.x, fieldAt.plain.y)]));
      assertAllOk(await client.run([secretType(SECRET, text(sites.a))]));
      const { x, y } = fieldAt.plain;
      const drag = await client.run([
        { type: 'left_double', x, y },
        { type: 'drag', from: { x, y }, to: user },
      ]);
      await assertUserEmpty([drag]);
      assert.equal(drag.results[1]?.error?.code, 'ACTION_FAILED', 'the drag was not refused');
    });

    it('(c) leave the page and go back: no document shows the secret unmasked', async () => {
      await open(`${sites.a}/login-values`);
      assertAllOk(await client.run([click(fieldAt.plain.x, fieldAt.plain.y)]));
      assertAllOk(await client.run([secretType(SECRET, text(sites.a))]));
      const away = await client.run([
        { type: 'navigate', url: `${sites.a}/button` },
        { type: 'navigate_back' },
      ]);
      assertAllOk(away);
      const state = await client.state();
      assert.doesNotMatch(state.title, new RegExp(SECRET), `restored: ${state.title}`);
      assert.doesNotMatch(JSON.stringify(away.results), new RegExp(SECRET));
      // The plain field's place: no text drawn there (a restored field would show it unmasked).
      const min = await darkest((await client.screenshot('?caret=hide')).jpeg, {
        x: 54,
        y: 204,
        w: 392,
        h: 52,
      });
      assert.ok(min > 150, `text drawn where the secret field was: darkest ${min}`);
      // The same through the page's own Back button (history.back() on a click).
      await open(`${sites.a}/login-values`);
      assertAllOk(await client.run([click(fieldAt.plain.x, fieldAt.plain.y)]));
      assertAllOk(await client.run([secretType(SECRET, text(sites.a))]));
      assertAllOk(await client.run([{ type: 'navigate', url: `${sites.a}/back` }, click(50, 30)]));
      const afterButton = await client.state();
      assert.doesNotMatch(afterButton.title, new RegExp(SECRET), `restored: ${afterButton.title}`);
      assert.match(afterButton.url, /\/back$/);
      // Going back is refused only by having no history: the model can still load the page anew.
      await open(`${sites.a}/login-values`);
      const values = await client.titleJson<Report[]>();
      assert.deepEqual(
        values.map((report) => report.value),
        ['', '', ''],
      );
    });

    it('controls: plain text copies; a password field passes the same moves through and gives nothing', async () => {
      // Ordinary text (no secret on the page) still copies: the moves are real. The clipboard now
      // holds `ordinary`, whatever an earlier test left there.
      await open(`${sites.a}/login`);
      assertAllOk(
        await client.run([
          click(fieldAt.plain.x, fieldAt.plain.y),
          { type: 'type', text: 'ordinary' },
          hotkey('ctrl', 'a'),
          hotkey('ctrl', 'c'),
          click(user.x, user.y),
          hotkey('ctrl', 'v'),
        ]),
      );
      const userValues = async () =>
        (await client.titleJson<Report[]>())
          .filter((report) => report.id === 'user' && report.type === 'input')
          .map((report) => report.value);
      assert.deepEqual(await userValues(), ['ordinary']);

      // (a) on the password field: not refused; Chromium copies nothing (the paste is `ordinary`).
      await open(`${sites.a}/login`);
      assertAllOk(await client.run([click(fieldAt.pass.x, fieldAt.pass.y)]));
      assertAllOk(await client.run([secretType(SECRET, password(sites.a))]));
      assertAllOk(await client.run([hotkey('ctrl', 'a'), hotkey('ctrl', 'c')]));
      assertAllOk(await client.run([click(user.x, user.y), hotkey('ctrl', 'v')]));
      assert.deepEqual(await userValues(), ['ordinary']);
      // (b) a drag out of it: sent, nothing dropped.
      const { x, y } = fieldAt.pass;
      assertAllOk(
        await client.run([
          { type: 'left_double', x, y },
          { type: 'drag', from: { x, y }, to: user },
        ]),
      );
      assert.deepEqual(await userValues(), ['ordinary']);

      // (c) back still works after a password secret, and Chromium restores nothing.
      await open(`${sites.a}/login-values`);
      assertAllOk(await client.run([click(fieldAt.pass.x, fieldAt.pass.y)]));
      assertAllOk(await client.run([secretType(SECRET, password(sites.a))]));
      const back = await client.run([
        { type: 'navigate', url: `${sites.a}/button` },
        { type: 'navigate_back' },
      ]);
      assert.equal(back.results[1]?.navigated, true, JSON.stringify(back.results));
      const restored = await client.titleJson<Report[]>();
      assert.deepEqual(
        restored.map((report) => report.value),
        ['', '', ''],
      );
    });
  },
);
