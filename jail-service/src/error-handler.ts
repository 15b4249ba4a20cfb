import type { BearerRefusal } from '@clawdie/kit/auth';
import type { ErrorInfo } from '@clawdie/kit/jail-api';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Logger } from 'pino';
import type { z } from 'zod';
import { AppError, BadRequestError, UnauthorizedError } from './errors.js';

/** The one place errors become HTTP: AppError → its status and `{ error: { code, message } }`. */
export function errorHandler(logger: Logger) {
  return function onError(error: Error, c: Context): Response {
    if (error instanceof AppError) {
      if (error.status >= 500)
        logger.warn({ code: error.code, message: error.message }, 'request failed');
      return c.json(errorBody(error), error.status as ContentfulStatusCode);
    }
    if (error instanceof HTTPException) return error.getResponse();
    logger.error({ err: error }, 'unexpected error');
    return c.json(
      { error: { code: 'INTERNAL', message: 'internal error' } satisfies ErrorInfo },
      500,
    );
  };
}

/** The 401 of a refused bearer token (see `requireBearer`), with a `Bearer` challenge. */
export function unauthorized(c: Context, reason: BearerRefusal): Response {
  const message =
    reason === 'missing' ? 'missing Authorization: Bearer header' : 'invalid bearer token';
  return c.json(errorBody(new UnauthorizedError(message)), 401, { 'www-authenticate': 'Bearer' });
}

export function errorBody(error: AppError): { error: ErrorInfo } {
  const info: ErrorInfo = { code: error.code, message: error.message };
  if (error.issues) info.issues = error.issues;
  return { error: info };
}

/** Parses a request part with zod; a failure is a 400 BAD_REQUEST listing every issue. */
export function parseRequest<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || '(root)',
    message: issue.message,
  }));
  const first = issues[0];
  const summary = first ? `${first.path}: ${first.message}` : 'invalid';
  throw new BadRequestError(`invalid ${what}: ${summary}`, issues);
}
