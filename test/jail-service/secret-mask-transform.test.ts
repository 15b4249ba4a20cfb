// A secret field's mask against a page that moves the field's pixels with CSS (review): a scaled
// frame of another origin, a translated and rotated ancestor in the field's own document, a scaled
// out-of-process frame and a frame that keeps moving (animation) must leave no pixel of the field
// unmasked; a page with no transform keeps the mask on the field's box (not the whole image).
// Real Chromium, checked by the screenshot's pixels.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createJsCodec } from '@clawdie/kit/images';
import type { Action } from '@clawdie/kit/jail-api';
import { unionBoxes } from '../../jail-service/src/browser/field-masks.js';
import { requires } from '../support/capabilities.js';
import { type StaticSite, startStaticSite } from '../support/static-site.js';
import { assertAllOk, type JailClient, startTestJail, type TestJail } from './jail-harness.js';

const SECRET = 'Hunter2-Secret';
const codec = createJsCodec();

/** The field: 400x60 at (50, 100) of its document, 40px black text on white, no border. */
const FIELD = { left: 50, top: 100, width: 400, height: 60 };
const fieldPage = (head = '') =>
  `<!doctype html><html><head>${head}</head><body style="margin:0;background:#fff">` +
  `<input id=f style="position:absolute;left:${FIELD.left}px;top:${FIELD.top}px;width:${FIELD.width}px;height:${FIELD.height}px;margin:0;padding:0;border:0;font:40px monospace;background:#fff;color:#000"></body></html>`;
const framing = (src: string, style: string, extra = '') =>
  `<!doctype html><html><head><style>@keyframes slide { from { transform: translateX(0) } to { transform: translateX(600px) } } .go { animation: slide 0.3s linear infinite alternate }</style></head><body style="margin:0;background:#fff">` +
  `<iframe id=frame src="${src}" style="position:absolute;left:20px;top:40px;width:600px;height:300px;border:0;transform-origin:0 0;${style}"></iframe>${extra}</body></html>`;

/** Maps a point of the field's document to the viewport. */
type Place = (x: number, y: number) => { x: number; y: number };

/** Pixels of the screenshot at the given viewport points (max of RGB). */
async function pixels(jpeg: Buffer, points: { x: number; y: number }[]): Promise<number[]> {
  const image = await codec.decode(jpeg);
  return points.map(({ x, y }) => {
    const at = (Math.round(y) * image.width + Math.round(x)) * image.channels;
    return Math.max(image.data[at] ?? 0, image.data[at + 1] ?? 0, image.data[at + 2] ?? 0);
  });
}

/** Points all over the field (4 px inside its edges), placed on screen. */
function fieldPoints(place: Place): { x: number; y: number }[] {
  const points: { x: number; y: number }[] = [];
  for (let x = FIELD.left + 4; x <= FIELD.left + FIELD.width - 4; x += 6)
    for (let y = FIELD.top + 4; y <= FIELD.top + FIELD.height - 4; y += 4) points.push(place(x, y));
  return points;
}

/** `translate(300px, 200px) rotate(20deg)` about the top left corner. */
const ROTATE = 'transform-origin:0 0;transform:translate(300px,200px) rotate(20deg)';
const rotated: Place = (x, y) => {
  const angle = (20 * Math.PI) / 180;
  return {
    x: 300 + x * Math.cos(angle) - y * Math.sin(angle),
    y: 200 + x * Math.sin(angle) + y * Math.cos(angle),
  };
};

const scaled =
  (scale: number): Place =>
  (x, y) => ({ x: 20 + x * scale, y: 40 + y * scale });

describe(
  'secret masks against CSS transforms and animations (real Chromium)',
  requires('chromium'),
  () => {
    let a: StaticSite;
    let b: StaticSite;
    let c: StaticSite;
    let urls: { a: string; b: string; c: string };
    let jail: TestJail;
    let client: JailClient;
    before(async () => {
      [a, b, c] = (await Promise.all([0, 1, 2].map(() => startStaticSite({})))) as [
        StaticSite,
        StaticSite,
        StaticSite,
      ];
      // a and b: 127.0.0.1, two ports (cross-origin, one renderer); c: localhost (out of process).
      urls = { a: a.url, b: b.url, c: c.url.replace('127.0.0.1', 'localhost') };
      for (const site of [a, b, c]) site.set('/field', fieldPage());
      a.set('/plain', framing(`${urls.b}/field`, ''));
      a.set('/scaled', framing(`${urls.b}/field`, 'transform:scale(1.5)'));
      a.set('/scaled-oop', framing(`${urls.c}/field`, 'transform:scale(1.5)'));
      // The frame starts moving once the focus went into it (the top window's blur).
      a.set(
        '/animated',
        framing(
          `${urls.b}/field`,
          '',
          `<script>addEventListener('blur', () => document.getElementById('frame').classList.add('go'))</script>`,
        ),
      );
      a.set(
        '/rotated-frame',
        framing(`${urls.b}/field`, '')
          .replace(
            '<iframe',
            `<div style="position:absolute;left:0;top:0;width:700px;height:400px;${ROTATE}"><iframe`,
          )
          .replace('</iframe>', '</iframe></div>'),
      );
      a.set(
        '/rotated',
        `<!doctype html><html><body style="margin:0;background:#fff"><div style="position:absolute;left:0;top:0;width:600px;height:300px;${ROTATE}">` +
          `<input id=f style="position:absolute;left:${FIELD.left}px;top:${FIELD.top}px;width:${FIELD.width}px;height:${FIELD.height}px;margin:0;padding:0;border:0;font:40px monospace;background:#fff;color:#000"></div></body></html>`,
      );
      jail = await startTestJail({ CLAWDIE_JAIL_NAVIGATION_TIMEOUT_MS: '5000' });
      client = jail.client;
    });
    after(async () => {
      await jail?.close();
      await Promise.all([a, b, c].map((site) => site?.close()));
    });

    /** Opens `path` of site a, clicks the field where it is drawn and types the secret into it. */
    const typeSecret = async (path: string, place: Place, origin: string) => {
      assertAllOk(await client.run([{ type: 'navigate', url: `${urls.a}${path}` }]));
      const center = place(FIELD.left + FIELD.width / 2, FIELD.top + FIELD.height / 2);
      const secret: Action = {
        type: 'type',
        text: SECRET,
        secret: { origins: [origin], fields: ['text'], autocomplete: [] },
      };
      assertAllOk(
        await client.run([{ type: 'wait', ms: 200 }, { type: 'click', ...center }, secret]),
      );
      return (await client.screenshot()).jpeg;
    };

    const assertFieldMasked = async (jpeg: Buffer, place: Place) => {
      const values = await pixels(jpeg, fieldPoints(place));
      const shown = values.filter((value) => value >= 40).length;
      assert.equal(shown, 0, `${shown} of ${values.length} field pixels not masked`);
    };
    /** A point far from the field is the page's white: the mask is not the whole image. */
    const assertNotAll = async (jpeg: Buffer) => {
      const [far] = await pixels(jpeg, [{ x: 1200, y: 680 }]);
      assert.ok((far ?? 0) > 200, `the whole image is masked: ${far}`);
    };

    it('control: no transform, the mask is the field’s box (not the whole image)', async () => {
      const place = scaled(1);
      const jpeg = await typeSecret('/plain', place, urls.b);
      await assertFieldMasked(jpeg, place);
      await assertNotAll(jpeg);
      const [below, right] = await pixels(jpeg, [place(250, 175), place(470, 130)]);
      assert.ok((below ?? 0) > 200 && (right ?? 0) > 200, `the mask spilled: ${below}, ${right}`);
    });

    it('masks the field of a scaled frame of another origin where it is drawn', async () => {
      const place = scaled(1.5);
      const jpeg = await typeSecret('/scaled', place, urls.b);
      await assertFieldMasked(jpeg, place);
      await assertNotAll(jpeg);
    });

    it('masks a field under a translated and rotated ancestor in its own document', async () => {
      const jpeg = await typeSecret('/rotated', rotated, urls.a);
      await assertFieldMasked(jpeg, rotated);
      await assertNotAll(jpeg);
    });

    it('masks the field of a frame of another origin under a translated and rotated ancestor', async () => {
      const place: Place = (x, y) => rotated(20 + x, 40 + y);
      const jpeg = await typeSecret('/rotated-frame', place, urls.b);
      await assertFieldMasked(jpeg, place);
      await assertNotAll(jpeg);
    });

    it('masks the field of a scaled out-of-process frame where it is drawn', async () => {
      const place = scaled(1.5);
      const jpeg = await typeSecret('/scaled-oop', place, urls.c);
      await assertFieldMasked(jpeg, place);
      await assertNotAll(jpeg);
    });

    it('masks the whole image while the frame of the field keeps moving', async () => {
      const jpeg = await typeSecret('/animated', scaled(1), urls.b);
      const grid: { x: number; y: number }[] = [];
      for (let x = 10; x < 1280; x += 20) for (let y = 10; y < 720; y += 20) grid.push({ x, y });
      const values = await pixels(jpeg, grid);
      const shown = values.filter((value) => value >= 40).length;
      assert.equal(shown, 0, `${shown} of ${values.length} pixels not masked`);
    });

    it('a field whose box changed between two reads masks the whole image', () => {
      const box = { x: 10, y: 10, width: 100, height: 20, field: 1 };
      assert.equal(unionBoxes([box], [{ ...box, x: 40 }]), 'all');
      assert.deepEqual(unionBoxes([box], [{ ...box, x: 10.5 }]), [box, { ...box, x: 10.5 }]);
      assert.deepEqual(unionBoxes([box], [{ ...box, field: 2, x: 40 }]).length, 2);
    });
  },
);
