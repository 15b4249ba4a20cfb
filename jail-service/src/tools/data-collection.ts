// The data_collection namespace: reads of the page that never change it.
import { z } from 'zod';
import {
  type ElementsResponse,
  type LandingRequest,
  type LandingResponse,
  landingRequestSchema,
  type PageState,
} from '../api/index.js';
import type { PageDriver, Screenshot } from '../page-driver.js';
import type { Tool } from './tool.js';

export const screenshotInputSchema = z.strictObject({
  quality: z.number().int().min(1).max(100).optional(),
});
export type ScreenshotInput = z.infer<typeof screenshotInputSchema>;

const noInput = z.strictObject({});
type NoInput = z.infer<typeof noInput>;

export interface DataCollectionTools {
  screenshot: Tool<ScreenshotInput, Screenshot>;
  state: Tool<NoInput, PageState>;
  elements: Tool<NoInput, ElementsResponse>;
  landing: Tool<LandingRequest, LandingResponse>;
}

export interface DataCollectionOptions {
  driver: PageDriver;
  timeoutMs: number;
  defaultQuality: number;
}

/** Builds the screenshot, state and elements tools over one page. */
export function createDataCollectionTools(options: DataCollectionOptions): DataCollectionTools {
  const { driver, timeoutMs } = options;
  return {
    screenshot: {
      name: 'screenshot',
      namespace: 'data_collection',
      description:
        'JPEG of the visible viewport at device pixels (image size = CSS viewport × device pixel ratio), with its geometry.',
      timeoutMs,
      inputSchema: screenshotInputSchema,
      run: (input) => driver.screenshot(input.quality ?? options.defaultQuality),
    },
    state: {
      name: 'state',
      namespace: 'data_collection',
      description: 'URL, title and loading flag of the page.',
      timeoutMs,
      inputSchema: noInput,
      run: () => driver.state(),
    },
    elements: {
      name: 'elements',
      namespace: 'data_collection',
      description:
        'Indexed visible interactive elements intersecting the viewport, with boxes in CSS pixels.',
      timeoutMs,
      inputSchema: noInput,
      run: () => driver.elements(),
    },
    landing: {
      name: 'landing',
      namespace: 'data_collection',
      description:
        'Where one action would land now: the frames under its point (or holding the focus), top first, with their origins; the element; where a link or form would go (POST /landing).',
      timeoutMs,
      inputSchema: landingRequestSchema,
      run: (input) => driver.landing(input.action),
    },
  };
}
