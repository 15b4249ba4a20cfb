// A scripted PageDriver: records every call, answers with fixed data, and can hang or fail on
// chosen steps so the tool layer (timeouts, early exit, validation) is testable without Chromium.

import type {
  BrowserStatus,
  InputOutcome,
  InputStep,
  PageDriver,
  PerformOptions,
  Screenshot,
} from '../../jail-service/src/page-driver.js';
import type { LandingResponse } from '../../kit/src/jail-api/index.js';

export interface FakePageDriverOptions {
  /** Never settle `perform` when one of its steps matches. */
  hangOn?: (step: InputStep) => boolean;
  /** Reject `perform` with this error when one of its steps matches. */
  failOn?: (step: InputStep) => Error | undefined;
}

export interface FakePageDriver extends PageDriver {
  performed: InputStep[][];
  /** Secrets typed through `typeSecret`, in order (the fake has no focus to check). */
  secrets: string[];
  /** Answers of `landing`, one per call (the last one repeats); default: landing nowhere. */
  landings: LandingResponse[];
  resets: number;
  navigations: string[];
  interrupts: number;
  closed: boolean;
}

export function createFakePageDriver(options: FakePageDriverOptions = {}): FakePageDriver {
  const fake: FakePageDriver = {
    performed: [],
    secrets: [],
    landings: [],
    resets: 0,
    navigations: [],
    interrupts: 0,
    closed: false,
    viewport: () => ({ width: 800, height: 600, deviceScaleFactor: 1 }),
    status: (): BrowserStatus => ({ connected: true, version: 'Fake/1.0', pageAlive: true }),
    currentUrl: () => fake.navigations.at(-1) ?? 'about:blank',
    async screenshot(quality): Promise<Screenshot> {
      return {
        jpeg: Uint8Array.from([0xff, 0xd8, quality]),
        meta: {
          viewportWidth: 800,
          viewportHeight: 600,
          devicePixelRatio: 1,
          imageWidth: 800,
          imageHeight: 600,
        },
      };
    },
    async state() {
      return { url: fake.currentUrl(), title: 'fake', loading: false };
    },
    async elements() {
      return { elements: [], viewport: { width: 800, height: 600 }, device_pixel_ratio: 1 };
    },
    perform(steps: readonly InputStep[], _options: PerformOptions): Promise<InputOutcome> {
      fake.performed.push([...steps]);
      if (options.hangOn && steps.some(options.hangOn)) return new Promise(() => {});
      const error = steps.map((step) => options.failOn?.(step)).find(Boolean);
      if (error) return Promise.reject(error);
      return Promise.resolve({ navigated: false });
    },
    async navigate(url) {
      fake.navigations.push(url);
      return { navigated: true };
    },
    async landing() {
      const next = fake.landings.length > 1 ? fake.landings.shift() : fake.landings[0];
      return next ?? { url: fake.currentUrl(), document_id: 'fake.1', target: null, source: null };
    },
    async typeSecret(text) {
      fake.secrets.push(text);
    },
    async reset() {
      fake.resets++;
    },
    async goBack() {
      return { navigated: false };
    },
    async interrupt() {
      fake.interrupts++;
    },
    async close() {
      fake.closed = true;
    },
  };
  return fake;
}
