import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import type { PageElement } from '@clawdie/kit/jail-api';
import sharp from 'sharp';
import { demoTask } from '../../../../controlplane/src/platform/demo/demo-site-server.js';
import type {
  UiTarsTestModel,
  UiTarsTestModelOptions,
} from '../../../support/uitars-test-model.js';
import { startUiTarsTestModel } from '../../../support/uitars-test-model.js';
import type { FakeJail } from '../../../support/uitars-test-model-fake-jail.js';
import { fakeJailToken, startFakeJail } from '../../../support/uitars-test-model-fake-jail.js';

/** A chat message as the tests send it. */
export type Message = { role: string; content: unknown };

/** A plain JPEG data URL of the given size. */
export async function jpeg(width: number, height: number): Promise<string> {
  const data = await sharp({ create: { width, height, channels: 3, background: '#f3f5f8' } })
    .jpeg()
    .toBuffer();
  return `data:image/jpeg;base64,${data.toString('base64')}`;
}

/** A UI-TARS conversation: prompt, then (screenshot, reply) per history entry, then a screenshot. */
export async function screenshotMessages(
  width: number,
  height: number,
  history: string[] = [],
  instruction = demoTask.instruction,
): Promise<Message[]> {
  const image = {
    role: 'user',
    content: [{ type: 'image_url', image_url: { url: await jpeg(width, height) } }],
  };
  return [
    { role: 'user', content: `You are a GUI agent.\n## User Instruction\n${instruction}` },
    ...history.flatMap((text) => [image, { role: 'assistant', content: text }]),
    image,
  ];
}

/** POSTs a chat completion to a fake model. */
export async function complete(
  model: { baseUrl: string },
  messages: Message[],
  init: RequestInit = {},
): Promise<Response> {
  return fetch(`${model.baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'ui-tars-1.5-7b', messages }),
    ...init,
  });
}

/** Asserts an OpenAI chat.completion body and returns the assistant content. */
export async function contentOf(response: Response): Promise<string> {
  assert.equal(response.status, 200);
  const body = (await response.json()) as {
    object: string;
    choices: Array<{ message: { role: string; content: string }; finish_reason: string }>;
    usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  };
  assert.equal(body.object, 'chat.completion');
  assert.equal(body.choices[0]?.finish_reason, 'stop');
  assert.equal(body.choices[0]?.message.role, 'assistant');
  assert.equal(body.usage.total_tokens, body.usage.prompt_tokens + body.usage.completion_tokens);
  return body.choices[0]?.message.content ?? '';
}

/** Parses UI-TARS-1.5 text: the actions after the last `Action:`, split on blank lines. */
export function actionsOf(text: string): string[] {
  const marker = text.lastIndexOf('Action:');
  assert.ok(marker >= 0, `no Action: in ${text}`);
  assert.match(text, /^Thought: \S/);
  return text
    .slice(marker + 'Action:'.length)
    .trim()
    .split('\n\n');
}

type Size = { width: number; height: number };

/** Maps a `click(start_box='<|box_start|>(x,y)<|box_end|>')` back to CSS pixels. */
export function clickToCss(
  action: string,
  model: Size,
  screenshot: Size,
  dpr: number,
): { x: number; y: number } {
  const match = /^click\(start_box='<\|box_start\|>\((\d+),(\d+)\)<\|box_end\|>'\)$/.exec(action);
  assert.ok(match, `not a UI-TARS-1.5 click: ${action}`);
  return {
    x: ((Number(match[1]) / model.width) * screenshot.width) / dpr,
    y: ((Number(match[2]) / model.height) * screenshot.height) / dpr,
  };
}

/** Asserts that a CSS point is within `tolerance` px of the element's box centre. */
export function assertAtCentre(
  point: { x: number; y: number },
  target: PageElement,
  tolerance: number,
): void {
  const centre = {
    x: target.box.x + target.box.width / 2,
    y: target.box.y + target.box.height / 2,
  };
  assert.ok(
    Math.abs(point.x - centre.x) <= tolerance && Math.abs(point.y - centre.y) <= tolerance,
    `(${point.x}, ${point.y}) is not the centre (${centre.x}, ${centre.y}) of ${target.text || target.id}`,
  );
}

/** A fake jail plus a test model looking at it, both closed after the test. */
export async function setup(
  t: TestContext,
  options: Partial<UiTarsTestModelOptions> = {},
): Promise<{ jail: FakeJail; model: UiTarsTestModel }> {
  const jail = await startFakeJail(t);
  const model = await startUiTarsTestModel({
    jailUrl: jail.url,
    jailToken: fakeJailToken,
    ...options,
  });
  t.after(() => model.close());
  return { jail, model };
}
