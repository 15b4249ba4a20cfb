import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Action, Point } from '@clawdie/kit/jail-api';
import sharp from 'sharp';
import type { BrowserOperator } from '../../controlplane/src/browser/operator/browser-operator.js';
import { OperatorError } from '../../controlplane/src/errors.js';

export interface OperatorUnderTest {
  operator: BrowserOperator;
  /** An action this operator reports as failed (status `error`), e.g. a navigation that cannot load. */
  failingAction: Action;
  /** A URL the operator can navigate to; `null` for an operator without navigation (desktop). */
  reachableUrl: string | null;
  /** With `reachableUrl: null`: the URL every state reports (e.g. `x11://:7`). */
  fixedUrl?: string;
  /**
   * A page for the landing cases (issue 20), or why they cannot run for this operator (a string:
   * the cases register as skipped with it).
   */
  landing: LandingFixture | string;
  /** A surface without a DOM (a desktop): every landing is `target: null`, every secret refused. */
  noDom?: boolean;
  close(): Promise<void>;
}

/** A page with a same-origin link, a cross-origin iframe, a password and a text field. */
export interface LandingFixture {
  url: string;
  /** A link on the page and its absolute href (another document of the page's origin). */
  link: Point & { href: string };
  /** A point inside a cross-origin iframe, and that frame's origin. */
  frame: Point & { origin: string };
  password: Point;
  text: Point;
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

    it('takes a screenshot without the caret at the same geometry (a wait asks for it)', async () => {
      const plain = await subject.operator.screenshot();
      const hidden = await subject.operator.screenshot(undefined, { hideCaret: true });
      assert.deepEqual([...hidden.jpeg.subarray(0, 2)], [0xff, 0xd8]);
      assert.deepEqual(hidden.meta, plain.meta);
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

    describe('landing (issue 20)', () => {
      const fixture = () => subject.landing as LandingFixture;
      const needsPage = (t: { skip(message: string): void }) => {
        if (typeof subject.landing === 'string') {
          t.skip(subject.landing);
          return false;
        }
        return true;
      };
      const open = async () => {
        await subject.operator.execute([{ type: 'navigate', url: fixture().url }]);
        return subject.operator.state();
      };

      it('lands a wait nowhere and names the current document', async (t) => {
        if (!needsPage(t)) return;
        const state = await open();
        const landing = await subject.operator.landing({ type: 'wait', ms: 0 });
        assert.equal(landing.target, null);
        assert.equal(landing.url, state.url);
        assert.equal(landing.document_id, state.document_id);
      });

      it('reports a link with its absolute destination; following it changes the document', async (t) => {
        if (!needsPage(t)) return;
        const before = await open();
        const { link } = fixture();
        const landing = await subject.operator.landing({ type: 'click', x: link.x, y: link.y });
        assert.equal(landing.target?.frames[0]?.origin, new URL(fixture().url).origin);
        assert.deepEqual(
          [landing.target?.destination?.kind, landing.target?.destination?.url],
          ['link', link.href],
        );
        const response = await subject.operator.execute([{ type: 'click', x: link.x, y: link.y }]);
        assert.notEqual(response.state.document_id, before.document_id);
      });

      it('names every frame down to a cross-origin iframe under the point', async (t) => {
        if (!needsPage(t)) return;
        await open();
        const { frame } = fixture();
        const landing = await subject.operator.landing({ type: 'click', x: frame.x, y: frame.y });
        assert.deepEqual(
          landing.target?.frames.map((entry) => entry.origin),
          [new URL(fixture().url).origin, frame.origin],
        );
      });

      it('lands typing in the focused field and says its kind', async (t) => {
        if (!needsPage(t)) return;
        await open();
        const { password } = fixture();
        await subject.operator.execute([{ type: 'click', x: password.x, y: password.y }]);
        const landing = await subject.operator.landing({ type: 'type', text: 'x' });
        assert.equal(landing.target?.element?.field, 'password');
      });

      it('runs nothing when the page moved on since the landing (LANDING_CHANGED)', async (t) => {
        if (!needsPage(t)) return;
        const state = await open();
        const { link } = fixture();
        const landing = await subject.operator.landing({ type: 'click', x: link.x, y: link.y });
        const response = await subject.operator.execute([
          {
            type: 'click',
            x: link.x,
            y: link.y,
            expect: {
              document_id: `${landing.document_id}-stale`,
              origins: landing.target?.frames.map((entry) => entry.origin) ?? ['null'],
              destination: landing.target?.destination?.url ?? null,
            },
          },
          { type: 'wait', ms: 0 },
        ]);
        assert.equal(response.results[0]?.error?.code, 'LANDING_CHANGED');
        assert.equal(response.results[1]?.status, 'skipped');
        assert.equal(response.state.document_id, state.document_id, 'the link was not followed');
      });

      it('refuses a secret whose focus is a plain text field (FOCUS_MISMATCH), typing nothing', async (t) => {
        if (!needsPage(t)) return;
        await open();
        const { text } = fixture();
        await subject.operator.execute([{ type: 'click', x: text.x, y: text.y }]);
        const response = await subject.operator.execute([
          {
            type: 'type',
            text: 'hunter2',
            secret: {
              origins: [new URL(fixture().url).origin],
              fields: ['password'],
              autocomplete: [],
            },
          },
        ]);
        assert.equal(response.results[0]?.error?.code, 'FOCUS_MISMATCH');
      });

      it('without a DOM: lands every action nowhere known and refuses a secret, typing nothing', async (t) => {
        if (!subject.noDom) {
          t.skip('this operator has a DOM');
          return;
        }
        const state = await subject.operator.state();
        for (const action of [
          { type: 'click', x: 10, y: 10 },
          { type: 'type', text: 'x' },
        ] as const) {
          const landing = await subject.operator.landing(action);
          assert.deepEqual([landing.url, landing.target, landing.source], [state.url, null, null]);
        }
        const response = await subject.operator.execute([
          {
            type: 'type',
            text: 'hunter2',
            secret: {
              origins: ['http://127.0.0.1'],
              fields: ['password', 'text'],
              autocomplete: [],
            },
          },
        ]);
        assert.equal(response.results[0]?.error?.code, 'FOCUS_MISMATCH');
      });
    });
  });
}
