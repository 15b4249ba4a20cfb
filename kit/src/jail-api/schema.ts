import { z } from 'zod';
import { actionSchema } from './actions.js';
import { networkEvidenceSchema } from './evidence.js';

/** Header names carrying the geometry of a `GET /screenshot` JPEG body. */
export const screenshotHeaders = {
  viewportWidth: 'x-viewport-width',
  viewportHeight: 'x-viewport-height',
  devicePixelRatio: 'x-device-pixel-ratio',
  imageWidth: 'x-image-width',
  imageHeight: 'x-image-height',
} as const;

export const screenshotQuerySchema = z.strictObject({
  quality: z.coerce.number().int().min(1).max(100).optional(),
  /**
   * `hide`: the text caret is left out of the image (a wait's captures: a blinking caret is not
   * the page changing). Default `show`: the model sees where the focus is.
   */
  caret: z.enum(['show', 'hide']).optional(),
});

/** `GET /screencast`: lowest frame rate, JPEG quality and the box frames are scaled into. */
export const screencastQuerySchema = z.strictObject({
  fps: z.coerce.number().int().min(1).max(30).optional(),
  quality: z.coerce.number().int().min(1).max(100).optional(),
  max_width: z.coerce.number().int().min(64).max(4096).optional(),
  max_height: z.coerce.number().int().min(64).max(4096).optional(),
});

/** Geometry of a screenshot: the image is `viewport × devicePixelRatio` device pixels. */
export const screenshotMetaSchema = z.object({
  viewportWidth: z.number().int().positive(),
  viewportHeight: z.number().int().positive(),
  devicePixelRatio: z.number().positive(),
  imageWidth: z.number().int().positive(),
  imageHeight: z.number().int().positive(),
});
export type ScreenshotMeta = z.infer<typeof screenshotMetaSchema>;

/** Actions one `POST /actions` may carry; clients split longer batches. */
export const MAX_ACTIONS_PER_REQUEST = 20;
/** Bound on a request body of the jail-service (413, connection closed, past it). */
export const MAX_REQUEST_BODY_BYTES = 1024 * 1024;

export const actionsRequestSchema = z.strictObject({
  actions: z.array(actionSchema).min(1).max(MAX_ACTIONS_PER_REQUEST),
  /** Per-action timeout override in ms (bounded by the service's maximum). */
  timeout_ms: z.number().int().min(100).max(120_000).optional(),
});
export type ActionsRequest = z.infer<typeof actionsRequestSchema>;

export const errorCodeSchema = z.enum([
  'BAD_REQUEST',
  'UNAUTHORIZED',
  'NOT_FOUND',
  'OUT_OF_RANGE',
  'UNKNOWN_KEY',
  'TOOL_TIMEOUT',
  'BROWSER_UNAVAILABLE',
  'ACTION_FAILED',
  'NAVIGATION_FAILED',
  /** The page moved on between `POST /landing` and the action (`expect` no longer holds). */
  'LANDING_CHANGED',
  /** A secret's `type` found the focus outside the field it is for: nothing typed. */
  'FOCUS_MISMATCH',
  'INTERNAL',
]);
export type ErrorCode = z.infer<typeof errorCodeSchema>;

export const errorInfoSchema = z.object({
  code: errorCodeSchema,
  message: z.string(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ErrorInfo = z.infer<typeof errorInfoSchema>;
export const errorBodySchema = z.object({ error: errorInfoSchema });

export const pageStateSchema = z.object({
  url: z.string(),
  title: z.string(),
  loading: z.boolean(),
  /**
   * Identity of the active page's current document: changes on navigation, a new document, or
   * when a popup/tab the page opened becomes the active page. Absent on a desktop surface.
   */
  document_id: z.string().optional(),
  /**
   * Milliseconds since the active page last had a request (of any frame) in flight; 0 while one
   * is. A page signal for settle waits. Absent on a desktop surface.
   */
  network_idle_ms: z.number().int().min(0).optional(),
});
export type PageState = z.infer<typeof pageStateSchema>;

export const actionResultSchema = z.object({
  index: z.number().int().min(0),
  type: z.string(),
  status: z.enum(['ok', 'error', 'skipped']),
  duration_ms: z.number().min(0),
  /** True when the action caused a main-frame navigation that the service waited for. */
  navigated: z.boolean(),
  error: errorInfoSchema.optional(),
});
export type ActionResult = z.infer<typeof actionResultSchema>;

export const actionsResponseSchema = z.object({
  results: z.array(actionResultSchema),
  state: pageStateSchema,
  /**
   * The requests the batch caused (started between its start and its settle): absent where the
   * surface has no network view (the desktop).
   */
  evidence: networkEvidenceSchema.optional(),
});
export type ActionsResponse = z.infer<typeof actionsResponseSchema>;

export const boxSchema = z.object({
  x: z.number(),
  y: z.number(),
  width: z.number(),
  height: z.number(),
});
export type Box = z.infer<typeof boxSchema>;

/** A visible interactive element, box in CSS pixels of the viewport. */
export const elementSchema = z.object({
  index: z.number().int().min(0),
  tag: z.string(),
  role: z.string().nullable(),
  text: z.string(),
  name: z.string().nullable(),
  id: z.string().nullable(),
  input_type: z.string().nullable(),
  href: z.string().nullable(),
  enabled: z.boolean(),
  box: boxSchema,
});
export type PageElement = z.infer<typeof elementSchema>;

export const elementsResponseSchema = z.object({
  elements: z.array(elementSchema),
  viewport: z.object({ width: z.number(), height: z.number() }),
  device_pixel_ratio: z.number().positive(),
});
export type ElementsResponse = z.infer<typeof elementsResponseSchema>;

export const healthResponseSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  browser: z.object({ connected: z.boolean(), version: z.string().nullable() }),
  viewport: z.object({ width: z.number(), height: z.number() }),
  device_pixel_ratio: z.number().positive(),
  /** The image encoder in use (`sharp 0.35.5 (libvips 8.18.7)`, or the pure-JS one and why). */
  images: z.string().optional(),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;

/** `stream`: long-running reads served as a stream (the screencast), outside the page queue. */
export const toolNamespaceSchema = z.enum(['data_collection', 'action', 'stream']);
export type ToolNamespace = z.infer<typeof toolNamespaceSchema>;

export const toolsResponseSchema = z.object({
  tools: z.array(
    z.object({
      name: z.string(),
      namespace: toolNamespaceSchema,
      description: z.string(),
      timeout_ms: z.number().int().positive(),
      input_schema: z.record(z.string(), z.unknown()),
    }),
  ),
});
export type ToolsResponse = z.infer<typeof toolsResponseSchema>;
