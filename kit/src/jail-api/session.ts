// Contract of the session routes (`POST /session/export`, `POST /session/import`): a browser
// session bundle — cookies and each origin's localStorage and IndexedDB. Bundles carry secrets:
// callers and the service never log them.
import { z } from 'zod';
import { originIndexedDbSchema } from './session-indexeddb.js';
import { SESSION_LIMITS } from './session-limits.js';

export { SESSION_LIMITS };

/** `http(s)://host[:port]` with nothing after it (the exact origin, as `location.origin` has it). */
export const sessionOriginSchema = z
  .string()
  .max(300)
  .refine((value) => {
    try {
      const url = new URL(value);
      return /^https?:$/.test(url.protocol) && url.origin === value;
    } catch {
      return false;
    }
  }, 'must be an origin such as https://example.org or http://127.0.0.1:8080 (no path, no slash)');

export const sessionCookieSchema = z.strictObject({
  name: z.string().min(1).max(256),
  value: z.string().max(SESSION_LIMITS.valueChars),
  domain: z.string().min(1).max(253),
  path: z.string().min(1).max(1024),
  /** Unix seconds; absent or -1 for a session cookie. */
  expires: z.number().optional(),
  httpOnly: z.boolean(),
  secure: z.boolean(),
  sameSite: z.enum(['Strict', 'Lax', 'None']).optional(),
});
export type SessionCookie = z.infer<typeof sessionCookieSchema>;

export const originStorageSchema = z.strictObject({
  origin: sessionOriginSchema,
  localStorage: z
    .array(
      z.strictObject({
        key: z.string().max(SESSION_LIMITS.valueChars),
        value: z.string().max(SESSION_LIMITS.valueChars),
      }),
    )
    .max(SESSION_LIMITS.entriesPerOrigin),
  /** Absent in bundles saved before IndexedDB was carried; export always sets it. */
  indexedDB: originIndexedDbSchema.optional(),
});
export type OriginStorage = z.infer<typeof originStorageSchema>;

/** What `/session/export` returns and `/session/import` takes. */
export const sessionBundleSchema = z.strictObject({
  cookies: z.array(sessionCookieSchema).max(SESSION_LIMITS.cookies),
  origins: z.array(originStorageSchema).max(SESSION_LIMITS.origins),
});
export type SessionBundle = z.infer<typeof sessionBundleSchema>;

export const sessionExportRequestSchema = z.strictObject({
  origins: z.array(sessionOriginSchema).min(1).max(SESSION_LIMITS.origins),
});

/** `/session/import` answers with counts only, never values. */
export const sessionImportResponseSchema = z.object({
  cookies: z.number().int().min(0),
  origins: z.number().int().min(0),
  /** IndexedDB databases and records written (zero from a service that predates them). */
  indexedDb: z
    .object({ databases: z.number().int().min(0), records: z.number().int().min(0) })
    .default({ databases: 0, records: 0 }),
});
export type SessionImportResponse = z.infer<typeof sessionImportResponseSchema>;
