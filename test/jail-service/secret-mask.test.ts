// A secret's `type` against real Chromium (issue 20): refused with nothing typed when the focus
// is in another origin's frame or in a field the guard does not allow; inserted in one step (no
// key events) when it holds; and then painted over in every screenshot, at DPR 1 and 2, also
// inside an out-of-process iframe scrolled down the page.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createJsCodec } from '@clawdie/kit/images';
import type { Action, SecretGuard } from '@clawdie/kit/jail-api';
import { requires } from '../support/capabilities.js';
import { assertAllOk, type JailClient } from './jail-harness.js';
import { type Sites, withLandingJail } from './landing-pages.js';

interface Report {
  id: string;
  type: string;
  value: string;
  origin: string;
}

const SECRET = 'Hunter2-Secret';
const codec = createJsCodec();

/** Mean and spread of the RGB values of a CSS-pixel region of a screenshot. */
async function region(
  jpeg: Buffer,
  box: { x: number; y: number; w: number; h: number },
  scale: number,
) {
  const image = await codec.decode(jpeg);
  const values: number[] = [];
  for (let y = Math.round(box.y * scale); y < Math.round((box.y + box.h) * scale); y++)
    for (let x = Math.round(box.x * scale); x < Math.round((box.x + box.w) * scale); x++)
      for (let c = 0; c < 3; c++)
        values.push(image.data[(y * image.width + x) * image.channels + c] ?? 0);
  let [sum, max, min] = [0, 0, 255];
  for (const value of values) {
    sum += value;
    max = Math.max(max, value);
    min = Math.min(min, value);
  }
  return { mean: sum / values.length, max, min, width: image.width };
}

/** The `count`-th JPEG of GET /screencast (multipart parts with Content-Length). */
async function screencastFrame(client: JailClient, count: number): Promise<Buffer> {
  const response = await client.fetch('/screencast?fps=4');
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  let buffer = Buffer.alloc(0);
  let seen = 0;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error('screencast ended');
      buffer = Buffer.concat([buffer, value]);
      for (;;) {
        const head = buffer.indexOf('\r\n\r\n');
        const length = /Content-Length: (\d+)/.exec(
          buffer.subarray(0, Math.max(0, head)).toString(),
        );
        if (head < 0 || !length) break;
        const end = head + 4 + Number(length[1]);
        if (buffer.length < end) break;
        const jpeg = buffer.subarray(head + 4, end);
        buffer = buffer.subarray(end + 2);
        if (++seen >= count) return Buffer.from(jpeg);
      }
    }
  } finally {
    await reader.cancel();
  }
}

const secretType = (text: string, secret: SecretGuard): Action => ({ type: 'type', text, secret });

for (const scale of [1, 2]) {
  describe(`secret typing and masks at DPR ${scale} (real Chromium)`, requires('chromium'), () => {
    let sites: Sites;
    let client: JailClient;
    withLandingJail(
      {
        CLAWDIE_JAIL_DEVICE_SCALE_FACTOR: String(scale),
      },
      (fixture) => ({ sites, client } = fixture),
    );
    const open = async (url: string) => assertAllOk(await client.run([{ type: 'navigate', url }]));
    // The plain field of /login: 400x60 at (50, 200), 40px black text on white.
    const plain = { x: 54, y: 204, w: 392, h: 52 };

    if (scale === 1) {
      it('refuses a secret whose focus is in another origin’s frame: FOCUS_MISMATCH, nothing typed', async () => {
        await open(`${sites.a}/foreign`);
        assertAllOk(await client.run([{ type: 'click', x: 100, y: 150 }]));
        const guard = { origins: [sites.a], fields: ['password' as const], autocomplete: [] };
        const reply = await client.run([secretType(`${SECRET}\n`, guard)]);
        assert.equal(reply.results[0]?.error?.code, 'FOCUS_MISMATCH');
        assert.doesNotMatch(JSON.stringify(reply), new RegExp(SECRET));
        const reports = await client.titleJson<Report[]>();
        assert.deepEqual(reports, [], 'the foreign frame received input');
      });

      it('refuses a secret into a plain text field when only password fields are allowed', async () => {
        await open(`${sites.a}/login`);
        assertAllOk(await client.run([{ type: 'click', x: 100, y: 230 }]));
        const guard = { origins: [sites.a], fields: ['password' as const], autocomplete: [] };
        const reply = await client.run([secretType(SECRET, guard)]);
        assert.equal(reply.results[0]?.error?.code, 'FOCUS_MISMATCH');
        assert.deepEqual(await client.titleJson<Report[]>(), []);
      });

      it('inserts an allowed secret in one step (no key events) into the password field, Enter after', async () => {
        await open(`${sites.a}/login`);
        assertAllOk(await client.run([{ type: 'click', x: 100, y: 80 }]));
        const guard = { origins: [sites.a], fields: ['password' as const], autocomplete: [] };
        assertAllOk(await client.run([secretType(`${SECRET}\n`, guard)]));
        const reports = await client.titleJson<Report[]>();
        const keys = reports.filter((report) => report.type === 'keydown');
        assert.deepEqual(
          keys.map((report) => report.id),
          ['pass'],
          'only Enter is keyed',
        );
        const inputs = reports.filter((report) => report.type === 'input');
        assert.equal(inputs.length, 1);
        assert.equal(inputs[0]?.value, SECRET);
      });

      it('masks a secret typed into a field of an out-of-process iframe scrolled into view', async () => {
        await open(`${sites.a}/scrolled`);
        assertAllOk(
          await client.run([{ type: 'scroll', x: 300, y: 100, direction: 'down', amount: 150 }]),
        );
        // The frame is at y = 300 - 150 = 150; its plain field at (50, 200) inside it. Measured:
        // a click right after the scroll can still reach the frame at its old place (the
        // browser routes input to out-of-process frames by the last composited positions).
        assertAllOk(
          await client.run([
            { type: 'wait', ms: 300 },
            { type: 'click', x: 100, y: 380 },
          ]),
        );
        const guard = { origins: [sites.c], fields: ['text' as const], autocomplete: [] };
        assertAllOk(await client.run([secretType(SECRET, guard)]));
        const { jpeg } = await client.screenshot();
        const field = await region(jpeg, { x: 54, y: 354, w: 392, h: 52 }, scale);
        assert.ok(field.max < 40, `field region not masked: max ${field.max}`);
        const above = await region(jpeg, { x: 54, y: 290, w: 392, h: 40 }, scale);
        assert.ok(above.mean > 200, `the mask spilled over: mean ${above.mean}`);
      });
    }

    it('paints the secret field over in the screenshot; the same text typed plainly is visible', async () => {
      // Control: typed as ordinary text, the field shows dark glyphs on white.
      await open(`${sites.a}/login`);
      assertAllOk(
        await client.run([
          { type: 'click', x: 100, y: 230 },
          { type: 'type', text: SECRET },
        ]),
      );
      const shown = await region((await client.screenshot()).jpeg, plain, scale);
      if (!(shown.max > 200 && shown.min < 60)) {
        // Seen once in CI at DPR 2 (the field all white), never reproduced: say whether the
        // typing reached the page, to tell a lost click from a screenshot older than the page.
        const reports = await client.titleJson<Report[]>().catch((error: Error) => error.message);
        assert.fail(
          `control shows no text: ${JSON.stringify(shown)}; the page's reports: ${JSON.stringify(reports)}`,
        );
      }

      await open(`${sites.a}/login`);
      assertAllOk(await client.run([{ type: 'click', x: 100, y: 230 }]));
      const guard = { origins: [sites.a], fields: ['text' as const], autocomplete: [] };
      assertAllOk(await client.run([secretType(SECRET, guard)]));
      const { jpeg, response } = await client.screenshot();
      assert.equal(response.status, 200);
      const masked = await region(jpeg, plain, scale);
      assert.equal(masked.width, 1280 * scale);
      assert.ok(masked.max < 40, `field region not masked: ${JSON.stringify(masked)}`);
      // A wait's caret-less capture (it may go to the visual judge, a model) is masked too.
      const waitShot = await region((await client.screenshot('?caret=hide')).jpeg, plain, scale);
      assert.ok(waitShot.max < 40, `caret-less capture not masked: ${JSON.stringify(waitShot)}`);
      if (scale === 1) {
        // The live view (screencast, also what recordings are made of) is masked too.
        const frame = await region(await screencastFrame(client, 2), plain, 1);
        assert.ok(frame.max < 40, `screencast frame not masked: ${JSON.stringify(frame)}`);
      }
      // Gone with its document: a new document is not masked.
      await open(`${sites.a}/login`);
      const fresh = await region((await client.screenshot()).jpeg, plain, scale);
      assert.ok(fresh.mean > 200, 'a new document is not masked');
    });
  });
}
