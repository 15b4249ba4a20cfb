import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Action } from '@clawdie/jail-service/api';
import sharp from 'sharp';
import { OperatorError } from '../../controlplane/src/errors.js';
import type { BrowserOperator } from '../../controlplane/src/operator/browser-operator.js';

export interface OperatorUnderTest {
  operator: BrowserOperator;
  /** An action this operator reports as failed (status `error`), e.g. a navigation that cannot load. */
  failingAction: Action;
  /** A URL the operator can navigate to; `null` for an operator without navigation (desktop). */
  reachableUrl: string | null;
  /** With `reachableUrl: null`: the URL every state reports (e.g. `x11://:7`). */
  fixedUrl?: string;
  close(): Promise<void>;
}

/** Behaviour every BrowserOperator must show; registered for the fake and the real adapter. */
export function browserOperatorContract(
  name: string,
  create: () => Promise<OperatorUnderTest>,
): void {
  describe(`BrowserOperator contract: ${name}`, () => {
    let subject: OperatorUnderTest;
    before(async () => {
      subject = await create();
    });
    after(async () => {
      await subject?.close();
    });

    it('returns a JPEG whose pixel size is the viewport times the device pixel ratio', async () => {
      const { jpeg, meta } = await subject.operator.screenshot();
      assert.deepEqual([...jpeg.subarray(0, 2)], [0xff, 0xd8]);
      const decoded = await sharp(jpeg).metadata();
      assert.equal(decoded.width, meta.imageWidth);
      assert.equal(decoded.height, meta.imageHeight);
      assert.equal(meta.imageWidth, Math.round(meta.viewportWidth * meta.devicePixelRatio));
      assert.equal(meta.imageHeight, Math.round(meta.viewportHeight * meta.devicePixelRatio));
    });

    it('navigates and reports the new URL in the batch response and in state()', async (t) => {
      const url = subject.reachableUrl;
      if (url === null) return t.skip('this operator has no navigation');
      const response = await subject.operator.execute([{ type: 'navigate', url }]);
      assert.equal(response.results.length, 1);
      assert.equal(response.results[0]?.status, 'ok');
      assert.equal(response.state.url, url);
      assert.equal((await subject.operator.state()).url, url);
    });

    it('without navigation: reports navigate as a failed action and keeps its fixed URL', async (t) => {
      if (subject.reachableUrl !== null) return t.skip('this operator navigates');
      const response = await subject.operator.execute([
        { type: 'navigate', url: 'http://127.0.0.1:9/' },
      ]);
      assert.equal(response.results[0]?.status, 'error');
      assert.ok(response.results[0]?.error?.code);
      assert.equal(response.state.url, subject.fixedUrl);
      assert.equal((await subject.operator.state()).url, subject.fixedUrl);
    });

    it('runs a batch in order and skips what follows a failed action', async () => {
      const response = await subject.operator.execute([
        { type: 'hover', x: 5, y: 5 },
        subject.failingAction,
        { type: 'hover', x: 6, y: 6 },
      ]);
      assert.deepEqual(
        response.results.map((result) => [result.index, result.status]),
        [
          [0, 'ok'],
          [1, 'error'],
          [2, 'skipped'],
        ],
      );
      assert.ok(response.results[1]?.error?.code);
    });

    it('rejects a point outside the viewport as OPERATOR_REJECTED without running anything', async () => {
      const { meta } = await subject.operator.screenshot();
      await assert.rejects(
        subject.operator.execute([{ type: 'click', x: meta.viewportWidth + 10, y: 1 }]),
        (error: unknown) => error instanceof OperatorError && error.code === 'OPERATOR_REJECTED',
      );
    });
  });
}
