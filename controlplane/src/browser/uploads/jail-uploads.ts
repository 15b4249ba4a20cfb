// Adapter: a browser's provided files over its jail-service's `/uploads` routes (contract:
// @clawdie/kit/jail-api `uploadRoutes`). The bytes go through the API, never into the clone's
// filesystem directly, so the same path serves a FreeBSD jail.
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import {
  type UploadDecision,
  type UploadEvent,
  type UploadFile,
  type UploadList,
  uploadEventSchema,
  uploadFileSchema,
  uploadListSchema,
} from '@clawdie/kit/jail-api';
import { OperatorError } from '../../errors.js';
import type { JailEndpoint } from '../provider/browser-provider.js';
import { jailCall } from '../provider/jail-call.js';

/** Bound on sending one file; the small calls have their own. */
const SEND_TIMEOUT_MS = 120_000;
const CALL_TIMEOUT_MS = 10_000;

export interface BrowserUploads {
  /**
   * Sends the host file at `path` as the task's file `name`. `hold`: a chooser it is chosen for
   * waits for `decide`.
   */
  send(name: string, path: string, options?: { hold?: boolean }): Promise<UploadFile>;
  list(): Promise<UploadList>;
  /** Sets (or refuses) the file of held chooser `seq`; the event as it ended. */
  decide(seq: number, decision: UploadDecision['decision']): Promise<UploadEvent>;
  /** Deletes the task's upload directory in the clone. */
  clear(): Promise<void>;
}

export function jailUploads(
  service: JailEndpoint,
  fetchImpl = service.fetch ?? fetch,
): BrowserUploads {
  const request = jailCall(service, fetchImpl);
  const call = (path: string, init: RequestInit, timeoutMs: number) =>
    request(path, init, { timeoutMs });
  const parsed = async <T>(
    response: Response,
    schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } },
    what: string,
  ) => {
    const result = schema.safeParse(await response.json().catch(() => null));
    if (!result.success)
      throw new OperatorError('OPERATOR_BAD_RESPONSE', `jail-service ${what}: bad answer`);
    return result.data;
  };
  return {
    async send(name, path, { hold = false } = {}) {
      const body = Readable.toWeb(createReadStream(path)) as ReadableStream<Uint8Array>;
      const route = `/uploads/${encodeURIComponent(name)}${hold ? '?hold=1' : ''}`;
      const init = { method: 'PUT', body, duplex: 'half' } as RequestInit;
      return parsed(await call(route, init, SEND_TIMEOUT_MS), uploadFileSchema, route);
    },
    async list() {
      return parsed(await call('/uploads', {}, CALL_TIMEOUT_MS), uploadListSchema, '/uploads');
    },
    async decide(seq, decision) {
      const route = `/uploads/choosers/${seq}`;
      const init = {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ decision } satisfies UploadDecision),
      };
      return parsed(await call(route, init, CALL_TIMEOUT_MS), uploadEventSchema, route);
    },
    async clear() {
      await (await call('/uploads', { method: 'DELETE' }, CALL_TIMEOUT_MS)).body?.cancel();
    },
  };
}
