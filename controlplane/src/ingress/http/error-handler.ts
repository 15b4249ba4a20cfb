import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Logger } from 'pino';
import { z } from 'zod';
import { AppError } from '../../errors.js';

/** The one place that turns errors into HTTP responses: `{error: {code, message, issues?}}`. */
export function createErrorHandler(logger: Logger) {
  return function handleError(error: Error, c: Context): Response {
    if (error instanceof z.ZodError) {
      const issues = error.issues.map((issue) => ({
        path: issue.path.join('.'),
        message: issue.message,
      }));
      const first = issues[0];
      const message = first ? `${first.path || '(body)'}: ${first.message}` : 'invalid request';
      return c.json({ error: { code: 'BAD_REQUEST', message, issues } }, 400);
    }
    if (error instanceof AppError) {
      return c.json(
        { error: { code: error.code, message: error.message } },
        error.status as ContentfulStatusCode,
      );
    }
    if (error instanceof HTTPException) {
      return c.json({ error: { code: 'HTTP_ERROR', message: error.message } }, error.status);
    }
    logger.error({ err: error }, 'unhandled error');
    return c.json({ error: { code: 'INTERNAL', message: 'internal error' } }, 500);
  };
}

/** Reads a JSON body; malformed JSON is a 400, not a 500. */
export async function readJson(c: Context): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    throw new AppError('BAD_REQUEST', 'request body is not valid JSON', { status: 400 });
  }
}

/** Reads a form body (urlencoded or multipart); a malformed one is a 400, not a 500. */
export async function readForm(c: Context): Promise<Record<string, unknown>> {
  try {
    return await c.req.parseBody();
  } catch {
    throw new AppError('BAD_REQUEST', 'request body is not a valid form', { status: 400 });
  }
}
