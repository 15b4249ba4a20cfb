// The golden-coordinate tests (issue 22, point 2): for each model profile a fake server that
// speaks that provider's real wire format looks at the screenshot it receives, finds the marker
// (a magenta square the test page shows), and answers a click on its centre in the provider's
// own coordinate convention (from the image it got and, where the protocol declares one, the
// display size the request declares). The second request is answered with the provider's way of
// ending a task. The test then reads where Chromium saw the click land.
import type { ImageCodec } from '@clawdie/kit/images';
import type { FakeServerKind } from '../model-server-lists.js';

/** The marker colour the golden page shows, RGB. */
export const GOLDEN_MARKER: readonly [number, number, number] = [255, 0, 255];

export interface GoldenServerOptions {
  /** Decodes the received images (default: the tests' codec). */
  codec?: ImageCodec;
  /** Required key (the wire's own header: bearer, x-api-key or x-goog-api-key). */
  apiKey?: string;
  /** Chat-completions fakes: the server posed as (its model list and image decoder). */
  poseAs?: FakeServerKind;
}

/** One request as the fake saw it. */
export interface GoldenRequest {
  path: string;
  /** The parsed JSON body. */
  body: unknown;
  bodyBytes: number;
  /** Size and format of the newest image in the request. */
  image: { width: number; height: number; format: string } | null;
  /** The marker's centre found in that image, in its pixels. */
  marker: { x: number; y: number } | null;
  /** The point the fake answered, in the provider's convention (null for the ending turn). */
  answered: { x: number; y: number } | null;
}

export interface GoldenServer {
  /** Base URL to configure as CLAWDIE_MODEL_URL (e.g. `http://127.0.0.1:PORT/v1`). */
  url: string;
  readonly requests: readonly GoldenRequest[];
  close(): Promise<void>;
}
