import { smartResize } from '../../controlplane/src/agent/uitars/smart-resize.js';
import type { FakeServerKind } from './model-server-lists.js';
import type { DemoTaskInput } from './uitars-test-model-messages.js';
import { extractDemoTask, imageUrls, lastAssistantText } from './uitars-test-model-messages.js';
import type { ImageSize, PageTextReader } from './uitars-test-model-observe.js';
import {
  createPageTextReader,
  imageSizeFromDataUrl,
  observeJail,
} from './uitars-test-model-observe.js';
import type { ModelGeometry } from './uitars-test-model-policy.js';
import { decideDemoStep, formatPoint, formatReply } from './uitars-test-model-policy.js';
import type { ChatServer, ModelOutcome, ModelRequestRecord } from './uitars-test-model-server.js';
import { startChatServer } from './uitars-test-model-server.js';

export type { DemoTaskInput } from './uitars-test-model-messages.js';
export type { ModelGeometry, ModelPoint } from './uitars-test-model-policy.js';
export { toModelPoint } from './uitars-test-model-policy.js';
export type { ChatServer, ModelRequestRecord } from './uitars-test-model-server.js';

/**
 * Behaviour of the test model. `normal` plays the demo-shop policy; the others are failure modes:
 * `http500` (server error), `hang` (never answers until the client gives up or the model closes),
 * `garbage` (text without any parsable action), `repeat-click` (clicks the image centre every
 * turn, i.e. stuck), `out-of-range` (clicks outside the image), `invalid-json` (200 with a broken
 * body) and `call-user` (asks for help).
 */
export type UiTarsTestModelMode =
  | 'normal'
  | 'http500'
  | 'hang'
  | 'garbage'
  | 'repeat-click'
  | 'out-of-range'
  | 'invalid-json'
  | 'call-user';

/** Options of {@link startUiTarsTestModel}. */
export interface UiTarsTestModelOptions {
  /** Base URL of the jail-service whose browser the model "looks at". */
  jailUrl: string;
  jailToken: string;
  /**
   * `model` (default): the received image is already smart-resized, so its size is the model's
   * pixel space. `original`: the image is the raw screenshot; the model space is smartResize of it.
   */
  coordinateSpace?: 'model' | 'original';
  mode?: UiTarsTestModelMode;
  /** The server posed as (its model list and image decoder; uitars-test-model-server.ts). */
  poseAs?: FakeServerKind;
  /** Delay before every answer, in ms (default 0). */
  delayMs?: number;
  /** Overrides of the task read from the instruction. */
  task?: Partial<DemoTaskInput>;
  /** Reads a page's text for the item page (default: HTTP GET, signing in when redirected). */
  readPageText?: PageTextReader;
  /** URL typed into the address bar when the browser shows `about:blank`. */
  startUrl?: string;
  /** Require `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
  /** Model name echoed when the request names none (default `ui-tars-1.5-test`). */
  modelName?: string;
  fetch?: typeof fetch;
}

/** A running scripted UI-TARS-1.5 model. */
export interface UiTarsTestModel extends ChatServer {
  readonly mode: UiTarsTestModelMode;
  /** Switches mode; with `count`, only for the next `count` requests, then back to `normal`. */
  setMode(mode: UiTarsTestModelMode, options?: { count?: number }): void;
  setDelay(delayMs: number): void;
  /** Every assistant text sent, in order (a replay script for {@link startScriptedModel}). */
  readonly replies: readonly string[];
}

const garbageText =
  'I looked at the screenshot carefully but I am not sure what the next step should be. ' +
  'The page seems to contain a form and some text, so maybe I should think about it more.';

/**
 * Starts a real OpenAI-compatible HTTP server on 127.0.0.1 (port 0) that plays UI-TARS-1.5 on
 * the demo shop: per request it sizes the last image of the conversation, asks the jail-service for
 * `/state` and `/elements`, and answers with genuine UI-TARS-1.5 text whose coordinates are the
 * element centres in the model's pixel space. Jail or image failures answer HTTP 500 and are kept
 * in the request record's `error`.
 */
export async function startUiTarsTestModel(
  options: UiTarsTestModelOptions,
): Promise<UiTarsTestModel> {
  let mode: UiTarsTestModelMode = options.mode ?? 'normal';
  let remaining: number | null = null;
  let delayMs = options.delayMs ?? 0;
  const replies: string[] = [];
  const fetchImpl = options.fetch ?? fetch;

  const nextMode = (): UiTarsTestModelMode => {
    const current = mode;
    if (remaining !== null && --remaining <= 0) {
      mode = 'normal';
      remaining = null;
    }
    return current;
  };

  const geometryFor = async (record: ModelRequestRecord): Promise<ModelGeometry | null> => {
    const last = imageUrls(record.messages).at(-1);
    if (last === undefined) return null;
    const imageSize = await imageSizeFromDataUrl(last);
    const model =
      options.coordinateSpace === 'original'
        ? smartResize(imageSize.width, imageSize.height)
        : null;
    return { modelSize: model ?? imageSize, screenshotSize: imageSize, devicePixelRatio: 1 };
  };

  async function respond(record: ModelRequestRecord): Promise<ModelOutcome> {
    const current = nextMode();
    record.mode = current;
    switch (current) {
      case 'http500':
        return { kind: 'error', status: 500, message: 'scripted failure: internal server error' };
      case 'hang':
        return { kind: 'hang' };
      case 'invalid-json':
        return {
          kind: 'raw',
          status: 200,
          contentType: 'application/json',
          body: '{"id":"chatcmpl-broken","choices":[{',
        };
      case 'garbage':
        return { kind: 'reply', content: garbageText };
      case 'call-user':
        return {
          kind: 'reply',
          content: formatReply('I cannot continue without help from the user.', 'call_user()'),
        };
      default:
        break;
    }
    const geometry = await geometryFor(record);
    if (geometry === null) {
      return {
        kind: 'error',
        status: 400,
        message: 'the UI-TARS test model needs an image_url in the messages',
      };
    }
    const { width, height } = geometry.modelSize;
    if (current === 'repeat-click') {
      const centre = { x: Math.floor(width / 2), y: Math.floor(height / 2) };
      return {
        kind: 'reply',
        content: formatReply(
          'I will click the middle of the page again.',
          `click(start_box='${formatPoint(centre)}')`,
        ),
      };
    }
    if (current === 'out-of-range') {
      const outside = { x: width + 100, y: height + 100 };
      return {
        kind: 'reply',
        content: formatReply(
          'I will click the button below the page.',
          `click(start_box='${formatPoint(outside)}')`,
        ),
      };
    }
    const observation = await observeJail(options.jailUrl, options.jailToken, fetchImpl);
    const { viewport, device_pixel_ratio: devicePixelRatio } = observation.elements;
    const task = extractDemoTask(record.messages, options.task);
    const content = await decideDemoStep({
      observation,
      geometry: withScreenshot(
        geometry,
        options.coordinateSpace ?? 'model',
        viewport,
        devicePixelRatio,
      ),
      task,
      previousReply: lastAssistantText(record.messages) ?? replies.at(-1) ?? null,
      readPageText:
        options.readPageText ??
        createPageTextReader({ username: task.username, password: task.password }, fetchImpl),
      ...(options.startUrl === undefined ? {} : { startUrl: options.startUrl }),
    });
    return { kind: 'reply', content };
  }

  const server = await startChatServer({
    modelName: options.modelName ?? 'ui-tars-1.5-test',
    ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
    ...(options.poseAs === undefined ? {} : { poseAs: options.poseAs }),
    delayMs: () => delayMs,
    respond: async (record) => {
      const outcome = await respond(record);
      if (outcome.kind === 'reply') replies.push(outcome.content);
      return outcome;
    },
  });

  return {
    url: server.url,
    baseUrl: server.baseUrl,
    requests: server.requests,
    inFlight: server.inFlight,
    get modelsAsked() {
      return server.modelsAsked;
    },
    replies,
    close: () => server.close(),
    get mode() {
      return mode;
    },
    setMode(next, modeOptions = {}) {
      mode = next;
      remaining = modeOptions.count ?? null;
    },
    setDelay(next) {
      delayMs = next;
    },
  };
}

/**
 * In `model` space the screenshot is the jail's viewport × DPR and the received image is the
 * model space; in `original` space the received image is the screenshot itself.
 */
function withScreenshot(
  geometry: ModelGeometry,
  space: 'model' | 'original',
  viewport: ImageSize,
  devicePixelRatio: number,
): ModelGeometry {
  const screenshotSize =
    space === 'original'
      ? geometry.screenshotSize
      : {
          width: Math.round(viewport.width * devicePixelRatio),
          height: Math.round(viewport.height * devicePixelRatio),
        };
  return { modelSize: geometry.modelSize, screenshotSize, devicePixelRatio };
}

/** Options of {@link startScriptedModel}. */
export interface ScriptedModelOptions {
  delayMs?: number;
  apiKey?: string;
  modelName?: string;
  /** The server posed as (its model list and image decoder; uitars-test-model-server.ts). */
  poseAs?: FakeServerKind;
  /** With `poseAs: 'ollama'`: the version it reports. */
  serverVersion?: string;
}

/**
 * A fake OpenAI-compatible server returning `outputs` in order, one per request, ignoring the
 * content of the request; once they are used up it answers HTTP 500.
 */
export async function startScriptedModel(
  outputs: readonly string[],
  options: ScriptedModelOptions = {},
): Promise<ChatServer> {
  let next = 0;
  return startChatServer({
    modelName: options.modelName ?? 'ui-tars-1.5-scripted',
    ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
    ...(options.poseAs === undefined ? {} : { poseAs: options.poseAs }),
    ...(options.serverVersion === undefined ? {} : { serverVersion: options.serverVersion }),
    delayMs: () => options.delayMs ?? 0,
    respond: async (record) => {
      record.mode = `script[${next}]`;
      const content = outputs[next];
      if (content === undefined) {
        return {
          kind: 'error',
          status: 500,
          message: `scripted model exhausted after ${outputs.length} outputs`,
        };
      }
      next += 1;
      return { kind: 'reply', content };
    },
  });
}
