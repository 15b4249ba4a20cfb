// The HTTP surface of the jail-service (contract: ./api). Never listens; see server.ts.

import { requireBearer } from '@clawdie/kit/auth';
import {
  actionsRequestSchema,
  type HealthResponse,
  landingRequestSchema,
  MAX_REQUEST_BODY_BYTES,
  screencastQuerySchema,
  screenshotHeaders,
  screenshotQuerySchema,
} from '@clawdie/kit/jail-api';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Logger } from 'pino';
import { createDownloadRoutes } from './downloads/download-routes.js';
import type { DownloadStore } from './downloads/download-store.js';
import { errorBody, errorHandler, parseRequest, unauthorized } from './error-handler.js';
import { BadRequestError, NotFoundError } from './errors.js';
import type { PageDriver } from './page-driver.js';
import { createSessionRoutes } from './session/session-routes.js';
import type { BrowserSessionState } from './session/session-state.js';
import type { TakeoverPage } from './takeover/takeover-port.js';
import { createTakeoverRoutes } from './takeover/takeover-routes.js';
import { HELD_FRAME_HEADER, type HeldFrame, leavesPageAsIs } from './tools/held-frame.js';
import type { ToolRegistry } from './tools/registry.js';
import { runBatch } from './tools/run-batch.js';
import { toMultipart } from './tools/screencast.js';
import { validateBatch } from './tools/validate-batch.js';
import { createUploadRoutes } from './uploads/upload-routes.js';
import type { UploadStore } from './uploads/upload-store.js';

export interface AppDeps {
  tools: ToolRegistry;
  driver: PageDriver;
  config: { token: string };
  logger: Logger;
  /** The desktop surface (desktop/desktop-surface.ts), served under `/desktop` when present. */
  desktop?: { fetch: (request: Request) => Response | Promise<Response> };
  /** The image encoder's summary for /health (image-encoder.ts), read at each request. */
  images?: () => string;
  /** Login-state export/import (`/session/*`), when the browser supports it. */
  session?: BrowserSessionState;
  /** Human takeover: `POST /input` and `GET /signals` (takeover/takeover-routes.ts). */
  takeover?: TakeoverPage;
  /** The task's downloads (`/downloads*`), cleared by `/reset` too. */
  downloads?: DownloadStore;
  /** The task's files for upload (`/uploads*`), cleared by `/reset` too. */
  uploads?: UploadStore;
  /** The idle page's first frame, answered again while nothing changed (tools/held-frame.ts). */
  heldFrame?: HeldFrame;
}

/** Builds the Hono app: every route requires the bearer token; page operations run one at a time. */
export function createApp(deps: AppDeps): Hono {
  const { tools, driver } = deps;
  const logger = deps.logger.child({ module: 'http' });
  const app = new Hono();
  app.use('*', requireBearer({ token: deps.config.token, refuse: unauthorized }));
  const held = deps.heldFrame;
  if (held) {
    app.use('*', async function dropHeldFrame(c, next) {
      if (!leavesPageAsIs(c.req.method, c.req.path)) held.drop();
      await next();
    });
  }

  app.get('/health', (c) => {
    const body = health(driver, deps.images?.());
    return c.json(body, body.status === 'ok' ? 200 : 503);
  });

  app.get('/screenshot', async (c) => {
    const query = parseRequest(screenshotQuerySchema, c.req.query(), 'query');
    const input = {
      ...(query.quality === undefined ? {} : { quality: query.quality }),
      ...(query.caret === undefined ? {} : { caret: query.caret }),
    };
    const quality = query.quality ?? null;
    const capture = () => tools.exclusive(() => tools.invoke(tools.data.screenshot, input));
    // A held frame is an ordinary capture: one without the caret is always taken anew.
    const holds = held && query.caret !== 'hide' ? held : undefined;
    const kept = (await holds?.take(quality)) ?? null;
    const shot = kept ?? (holds ? await holds.capture(quality, capture) : await capture());
    const { meta } = shot;
    return c.body(shot.jpeg as Uint8Array<ArrayBuffer>, 200, {
      'content-type': 'image/jpeg',
      'cache-control': 'no-store',
      [screenshotHeaders.viewportWidth]: String(meta.viewportWidth),
      [screenshotHeaders.viewportHeight]: String(meta.viewportHeight),
      [screenshotHeaders.devicePixelRatio]: String(meta.devicePixelRatio),
      [screenshotHeaders.imageWidth]: String(meta.imageWidth),
      [screenshotHeaders.imageHeight]: String(meta.imageHeight),
      [HELD_FRAME_HEADER]: kept ? 'held' : 'captured',
    });
  });

  // Not `exclusive`: the feed runs alongside actions and screenshots until the client leaves.
  app.get('/screencast', async (c) => {
    const tool = tools.stream.screencast;
    if (!tool) throw new NotFoundError('this jail-service has no screencast');
    const query = parseRequest(screencastQuerySchema, c.req.query(), 'query');
    const input = Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined));
    const frames = await tools.invoke(tool, input);
    const boundary = 'clawdie-frame';
    return new Response(toMultipart(frames, boundary), {
      headers: {
        'content-type': `multipart/x-mixed-replace; boundary=${boundary}`,
        'cache-control': 'no-store',
      },
    });
  });

  const limit = bodyLimit({
    maxSize: MAX_REQUEST_BODY_BYTES,
    // `Connection: close`: the client may still be sending the rest of the body, so this
    // connection must not be reused for its next request (it would fail with a socket error).
    onError: (c) => {
      c.header('connection', 'close');
      throw new BadRequestError(
        `request body is larger than ${MAX_REQUEST_BODY_BYTES} bytes`,
        undefined,
        413,
      );
    },
  });
  app.post('/actions', limit, async (c) => {
    const body: unknown = await c.req.json().catch(() => {
      throw new BadRequestError('request body is not valid JSON');
    });
    const request = parseRequest(actionsRequestSchema, body, 'actions request');
    const response = await tools.exclusive(() => runBatch(request, { tools, driver, logger }));
    return c.json(response);
  });

  app.post('/landing', limit, async (c) => {
    const body: unknown = await c.req.json().catch(() => {
      throw new BadRequestError('request body is not valid JSON');
    });
    const request = parseRequest(landingRequestSchema, body, 'landing request');
    validateBatch([request.action], driver.viewport());
    return c.json(await tools.exclusive(() => tools.invoke(tools.data.landing, request)));
  });

  // Between tasks sharing this browser (the controlplane's local mode): a clean browser.
  app.post('/reset', async (c) => {
    await tools.exclusive(() => tools.reset());
    await deps.downloads?.clear();
    await deps.uploads?.clear();
    return c.json({ ok: true });
  });

  app.get('/state', async (c) =>
    c.json(await tools.exclusive(() => tools.invoke(tools.data.state, {}))),
  );
  app.get('/elements', async (c) =>
    c.json(await tools.exclusive(() => tools.invoke(tools.data.elements, {}))),
  );
  app.get('/tools', (c) => c.json(tools.describe()));

  if (deps.desktop) app.mount('/desktop', deps.desktop.fetch);
  if (deps.session) app.route('/session', sessionRoutes(deps.session, tools, logger));
  if (deps.takeover) app.route('/', createTakeoverRoutes(deps.takeover));
  if (deps.downloads) app.route('/', createDownloadRoutes(deps.downloads));
  if (deps.uploads) app.route('/', createUploadRoutes(deps.uploads));

  app.notFound((c) => {
    const error = new NotFoundError(`no route ${c.req.method} ${c.req.path}`);
    return c.json(errorBody(error), 404);
  });
  app.onError(errorHandler(logger));
  return app;
}

function sessionRoutes(state: BrowserSessionState, tools: ToolRegistry, logger: Logger) {
  return createSessionRoutes({ state, exclusive: (fn) => tools.exclusive(fn), logger });
}

function health(driver: PageDriver, images: string | undefined): HealthResponse {
  const status = driver.status();
  const viewport = driver.viewport();
  return {
    status: status.connected && status.pageAlive ? 'ok' : 'degraded',
    browser: { connected: status.connected, version: status.version },
    viewport: { width: viewport.width, height: viewport.height },
    device_pixel_ratio: viewport.deviceScaleFactor,
    ...(images ? { images } : {}),
  };
}
