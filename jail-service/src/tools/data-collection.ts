// The data_collection namespace: reads of the page that never change it.

import { landingRequestSchema } from '@clawdie/kit/jail-api';
import { z } from 'zod';
import { defineTools, type TimeoutPolicy, tool } from './tool.js';

export const screenshotInputSchema = z.strictObject({
  quality: z.number().int().min(1).max(100).optional(),
  caret: z.enum(['show', 'hide']).optional(),
});
export type ScreenshotInput = z.infer<typeof screenshotInputSchema>;

const noInput = z.strictObject({});
const timeout: TimeoutPolicy = { base: 'action' };

/** In the order `GET /tools` lists them. */
export const dataCollectionTools = defineTools('data_collection', {
  screenshot: tool({
    description:
      'JPEG of the visible viewport at device pixels (image size = CSS viewport × device pixel ratio), with its geometry.',
    inputSchema: screenshotInputSchema,
    timeout,
    handle: (input, call) =>
      call.driver.screenshot(input.quality ?? call.limits.screenshotQuality, {
        hideCaret: input.caret === 'hide',
      }),
  }),
  state: tool({
    description:
      'URL, title and loading flag of the page, its document id, and `network_idle_ms`: how long no request of the page has been in flight (0 while one is; a page signal for settle waits).',
    inputSchema: noInput,
    timeout,
    handle: (_input, call) => call.driver.state(),
  }),
  elements: tool({
    description:
      'Indexed visible interactive elements intersecting the viewport, with boxes in CSS pixels.',
    inputSchema: noInput,
    timeout,
    handle: (_input, call) => call.driver.elements(),
  }),
  landing: tool({
    description:
      'Where one action would land now: the frames under its point (or holding the focus), top first, with their origins; the element; where a link or form would go (POST /landing).',
    inputSchema: landingRequestSchema,
    timeout,
    handle: (input, call) => call.driver.landing(input.action),
  }),
});
