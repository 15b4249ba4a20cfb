// `POST /session/export` and `POST /session/import`: a browser's login state in and out, for
// saved session profiles. Behind the app's bearer token; bodies are bounded and validated; the
// values are never logged (only counts are).

import {
  indexedDbTotals,
  SESSION_LIMITS,
  type SessionBundle,
  sessionBundleSchema,
  sessionExportRequestSchema,
} from '@clawdie/kit/jail-api';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Logger } from 'pino';
import { parseRequest } from '../error-handler.js';
import { BadRequestError } from '../errors.js';
import type { BrowserSessionState } from './session-state.js';

export interface SessionRoutesDeps {
  state: BrowserSessionState;
  /** Serialises with every other page operation (the tool registry's `exclusive`). */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
  logger: Logger;
}

/** The session sub-app; mount it under `/session` behind the bearer middleware. */
export function createSessionRoutes(deps: SessionRoutesDeps): Hono {
  const logger = deps.logger.child({ module: 'session' });
  const app = new Hono();
  const limit = bodyLimit({
    maxSize: SESSION_LIMITS.bodyBytes,
    onError: (c) => {
      c.header('connection', 'close');
      throw new BadRequestError(
        `request body is larger than ${SESSION_LIMITS.bodyBytes} bytes`,
        undefined,
        413,
      );
    },
  });
  const json = (request: Request) =>
    request.json().catch(() => {
      throw new BadRequestError('request body is not valid JSON');
    });

  app.post('/export', limit, async (c) => {
    const request = parseRequest(sessionExportRequestSchema, await json(c.req.raw), 'export');
    const bundle = await deps.exclusive(() => deps.state.exportSession(request.origins));
    logger.info(
      { origins: request.origins, cookies: bundle.cookies.length, ...indexedDbCounts(bundle) },
      'session exported',
    );
    return c.json(bundle, 200, { 'cache-control': 'no-store' });
  });

  app.post('/import', limit, async (c) => {
    const bundle = parseRequest(sessionBundleSchema, await json(c.req.raw), 'session bundle');
    const totals = indexedDbTotals(bundle.origins.map((entry) => entry.indexedDB));
    if (
      totals.records > SESSION_LIMITS.indexedDbRecords ||
      totals.bytes > SESSION_LIMITS.indexedDbBytes
    )
      throw new BadRequestError(
        `IndexedDB holds ${totals.records} records / ${totals.bytes} bytes; at most ${SESSION_LIMITS.indexedDbRecords} / ${SESSION_LIMITS.indexedDbBytes}`,
        undefined,
        413,
      );
    const counts = await deps.exclusive(() => deps.state.importSession(bundle));
    logger.info(
      {
        origins: bundle.origins.map((entry) => entry.origin),
        cookies: counts.cookies,
        idbDatabases: counts.indexedDb.databases,
        idbRecords: counts.indexedDb.records,
      },
      'session imported',
    );
    return c.json(counts);
  });
  return app;
}

/** Counts of a bundle's IndexedDB for logs: databases, records and skips by reason (no names). */
function indexedDbCounts(bundle: SessionBundle) {
  const parts = bundle.origins.map((entry) => entry.indexedDB);
  const { databases, records } = indexedDbTotals(parts);
  const skipped: Record<string, number> = {};
  for (const skip of parts.flatMap((part) => part?.skipped ?? []))
    skipped[skip.reason] = (skipped[skip.reason] ?? 0) + skip.count;
  return { idbDatabases: databases, idbRecords: records, idbSkipped: skipped };
}
