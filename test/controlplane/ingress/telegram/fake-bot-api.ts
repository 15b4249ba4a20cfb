// A local server speaking the Telegram Bot API over HTTP (the subset Clawdie uses): getMe,
// getUpdates long polling, sendMessage, sendPhoto (multipart), answerCallbackQuery,
// editMessageReplyMarkup, deleteWebhook. grammy's `client.apiRoot` points at it, optionally with
// a path prefix (`<apiRoot>/a`) that names the caller in the recorded calls. As Telegram does, a
// getUpdates arriving while another one is pending ends the pending one with 409 Conflict.
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

export interface RecordedCall {
  method: string;
  /** The apiRoot path prefix the caller used (`a` for `<apiRoot>/a`), '' for none. */
  via: string;
  params: Record<string, unknown>;
  /** Size of an uploaded photo, when there was one. */
  photoBytes?: number;
}

export const botUser = {
  id: 4242,
  is_bot: true as const,
  first_name: 'Clawdie',
  username: 'clawdie_test_bot',
  can_join_groups: false,
  can_read_all_group_messages: false,
  supports_inline_queries: false,
  can_connect_to_business: false,
  has_main_web_app: false,
};

export async function startFakeBotApi(token: string) {
  const calls: RecordedCall[] = [];
  const updates: Record<string, unknown>[] = [];
  let nextUpdateId = 1;
  let nextMessageId = 100;
  /** The pending long poll: `end(true)` answers it 409 (another getUpdates came). */
  let pending: { via: string; end: (conflict: boolean) => void } | null = null;
  const conflicts: { ended: string; by: string }[] = [];
  const listeners = new Set<() => void>();
  const conflict = {
    ok: false,
    error_code: 409,
    description:
      'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running',
  };

  const ok = (result: unknown) => ({ ok: true, result });
  const readParams = async (
    request: Request,
  ): Promise<{ params: Record<string, unknown>; photoBytes?: number }> => {
    const type = request.headers.get('content-type') ?? '';
    if (type.includes('application/json'))
      return { params: (await request.json()) as Record<string, unknown> };
    if (type.includes('multipart/form-data')) {
      const boundary = /boundary="?([^";]+)"?/.exec(type)?.[1] ?? '';
      return parseMultipart(Buffer.from(await request.arrayBuffer()), boundary);
    }
    return { params: {} };
  };

  const app = new Hono();
  const route = new RegExp(`^(?:/([^/]+))?/bot${token.replace(/[^\w]/g, '\\$&')}/([^/]+)$`);
  app.post('*', async (c) => {
    const [, via = '', method = ''] = route.exec(c.req.path) ?? [];
    if (!method) return c.json({ ok: false, error_code: 404, description: 'Not Found' }, 404);
    const { params, photoBytes } = await readParams(c.req.raw);
    calls.push({ method, via, params, ...(photoBytes !== undefined ? { photoBytes } : {}) });
    for (const listener of listeners) listener();
    switch (method) {
      case 'getMe':
        return c.json(ok(botUser));
      case 'deleteWebhook':
      case 'answerCallbackQuery':
        return c.json(ok(true));
      case 'getUpdates': {
        if (pending) {
          conflicts.push({ ended: pending.via, by: via });
          pending.end(true);
        }
        const offset = Number(params.offset ?? 0);
        const timeout = Number(params.timeout ?? 0);
        const waiting = () => updates.filter((update) => (update.update_id as number) >= offset);
        if (waiting().length === 0 && timeout > 0) {
          const ended = await new Promise<boolean>((resolve) => {
            const timer = setTimeout(() => mine.end(false), timeout * 1000);
            const mine = {
              via,
              end(conflicted: boolean) {
                clearTimeout(timer);
                if (pending === mine) pending = null;
                resolve(conflicted);
              },
            };
            pending = mine;
            c.req.raw.signal.addEventListener('abort', () => mine.end(false), { once: true });
          });
          if (ended) return c.json(conflict, 409);
        }
        return c.json(ok(waiting()));
      }
      case 'sendMessage':
      case 'sendPhoto':
        return c.json(
          ok({
            message_id: nextMessageId++,
            date: Math.floor(Date.now() / 1000),
            chat: { id: Number(params.chat_id), type: 'private', first_name: 'Supervisor' },
            from: botUser,
            ...(method === 'sendPhoto'
              ? {
                  photo: [{ file_id: 'f', file_unique_id: 'u', width: 1, height: 1 }],
                  caption: params.caption,
                }
              : { text: params.text }),
          }),
        );
      case 'editMessageReplyMarkup':
        return c.json(ok(true));
      default:
        return c.json(
          { ok: false, error_code: 404, description: `Not Found: method ${method}` },
          404,
        );
    }
  });

  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const listening = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () =>
      resolve(listening),
    );
  });
  const apiRoot = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    apiRoot,
    calls,
    /** Each long poll a later getUpdates ended with 409: whose (`via`), and by whose. */
    conflicts,
    /** The `via` of the pending long poll, null when none is pending. */
    poller: () => pending?.via ?? null,
    /** Queues a button press from `userId` on `message` (as the Bot API would deliver it). */
    pressButton(userId: number, data: string, message: { chatId: number; messageId: number }) {
      updates.push({
        update_id: nextUpdateId++,
        callback_query: {
          id: `cq-${nextUpdateId}`,
          from: {
            id: userId,
            is_bot: false,
            first_name: `user${userId}`,
            username: `user${userId}`,
          },
          chat_instance: 'ci',
          data,
          message: {
            message_id: message.messageId,
            date: Math.floor(Date.now() / 1000),
            chat: { id: message.chatId, type: 'private', first_name: 'Supervisor' },
          },
        },
      });
      pending?.end(false);
    },
    /** Resolves with the first recorded call of `method` matching `where`, waiting for it. */
    async waitForCall(
      method: string,
      where: (call: RecordedCall) => boolean = () => true,
      timeoutMs = 10_000,
    ) {
      const find = () => calls.find((call) => call.method === method && where(call));
      const deadline = Date.now() + timeoutMs;
      while (!find()) {
        if (Date.now() > deadline)
          throw new Error(
            `no ${method} call within ${timeoutMs} ms; calls: ${calls.map((c) => c.method).join(', ')}`,
          );
        await new Promise<void>((resolve) => {
          const listener = () => {
            listeners.delete(listener);
            resolve();
          };
          listeners.add(listener);
          setTimeout(listener, 50);
        });
      }
      return find() as RecordedCall;
    },
    async close() {
      pending?.end(false);
      const closed = new Promise((resolve) => server.close(resolve));
      if ('closeAllConnections' in server) server.closeAllConnections();
      await closed;
    },
  };
}

/** A small multipart/form-data reader (undici's rejects grammy's streamed bodies). */
function parseMultipart(
  body: Buffer,
  boundary: string,
): { params: Record<string, unknown>; photoBytes?: number } {
  const params: Record<string, unknown> = {};
  let photoBytes: number | undefined;
  const text = body.toString('latin1');
  for (const part of text.split(`--${boundary}`)) {
    const split = part.indexOf('\r\n\r\n');
    if (split === -1) continue;
    const head = part.slice(0, split);
    const value = part.slice(split + 4).replace(/\r\n$/, '');
    const name = /name="([^"]+)"/i.exec(head)?.[1];
    if (!name) continue;
    if (/filename=/i.test(head)) photoBytes = Buffer.from(value, 'latin1').length;
    else
      params[name] = /^[[{]/.test(value)
        ? JSON.parse(Buffer.from(value, 'latin1').toString('utf8'))
        : Buffer.from(value, 'latin1').toString('utf8');
  }
  return photoBytes === undefined ? { params } : { params, photoBytes };
}
