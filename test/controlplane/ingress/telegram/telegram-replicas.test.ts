// Two controlplane replicas on one PostgreSQL database with the same Telegram bot, against the
// local Bot API server (which answers a second concurrent getUpdates 409, as Telegram does; each
// replica's calls go through its own path prefix, `a` or `b`, so they can be told apart): exactly
// one replica polls; an approval waiting on the other one is answered through the bot and
// resolves; when the poller's database session ends (it died, or its connection was cut), or it
// shuts down, the other polls within a heartbeat.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { requires } from '../../../support/capabilities.js';
import { createTestControlplane, type TestControlplane } from '../../../support/controlplane.js';
import { type PostgresCluster, startPostgres } from '../../../support/postgres/start-postgres.js';
import { terminateRoleHolder } from '../../../support/postgres/terminate-role-holder.js';
import { sampleRequest } from '../../governance/approvals/approvals-fixture.js';
import { startFakeBotApi } from './fake-bot-api.js';

const token = '123456:TEST-token';
const supervisorChat = 777;
const allowedUser = 1001;
const heartbeatMs = 200;
/** How long a standby may take to poll once the lock is free: a heartbeat, plus slack. */
const takeOverMs = heartbeatMs + 1_500;

let cluster: Promise<PostgresCluster> | null = null;
after(async () => {
  if (cluster) await (await cluster).stop();
});

type Api = Awaited<ReturnType<typeof startFakeBotApi>>;
type Replica = TestControlplane & { via: string };

/** Replicas `a` and `b` on a fresh database, `b` with `a`'s audit key, the bot at `api`. */
async function twoReplicas(t: TestContext, api: Api): Promise<Replica[]> {
  cluster ??= startPostgres();
  const url = await (await cluster).createDatabase();
  const replicas: Replica[] = [];
  for (const via of ['a', 'b']) {
    const dataDir = mkdtempSync(join(tmpdir(), `clawdie-telegram-${via}-`));
    t.after(() => rmSync(dataDir, { recursive: true, force: true }));
    const first = replicas[0];
    if (first) {
      mkdirSync(join(dataDir, 'keys'), { mode: 0o700 });
      copyFileSync(join(first.dataDir, 'keys', 'audit.key'), join(dataDir, 'keys', 'audit.key'));
    }
    const controlplane = await createTestControlplane({
      env: {
        CLAWDIE_DATABASE_URL: url,
        CLAWDIE_DATA_DIR: dataDir,
        CLAWDIE_REPLICA_HEARTBEAT_MS: String(heartbeatMs),
        CLAWDIE_REPLICA_TIMEOUT_MS: String(5 * heartbeatMs),
        CLAWDIE_TELEGRAM_BOT_TOKEN: token,
        CLAWDIE_TELEGRAM_CHAT_IDS: String(supervisorChat),
        CLAWDIE_TELEGRAM_ALLOWED_USER_IDS: String(allowedUser),
        CLAWDIE_TELEGRAM_API_ROOT: `${api.apiRoot}/${via}`,
      },
    });
    t.after(controlplane.close);
    replicas.push(Object.assign(controlplane, { via }));
  }
  return replicas;
}

async function until<T>(find: () => T | null | undefined, ms: number, what: string): Promise<T> {
  const deadline = performance.now() + ms;
  for (;;) {
    const found = find();
    if (found) return found;
    assert.ok(performance.now() < deadline, `${what} within ${ms} ms`);
    await sleep(10);
  }
}

/** The replica whose long poll is pending, once one is. */
const poller = (api: Api, replicas: Replica[]) =>
  until(() => replicas.find((r) => r.via === api.poller()), 5_000, 'a replica polls');

/** Asserts that `via` is polling now and is the only replica that called getUpdates since call `since`. */
async function onlyPoller(api: Api, via: string, since: number, what: string) {
  await until(() => api.poller() === via, 5_000, `${via} polls`);
  const pollers = api.calls
    .slice(since)
    .filter((call) => call.method === 'getUpdates')
    .map((call) => call.via);
  assert.deepEqual([...new Set([via, ...pollers])], [via], what);
}

/** Requests an approval on `waiting`; an allowed user presses Approve; resolves its outcome. */
async function approveThroughBot(api: Api, waiting: Replica) {
  const from = api.calls.length;
  const outcome = waiting.approvals.request({ ...sampleRequest, timeoutMs: 60_000 });
  const sent = await api.waitForCall(
    'sendPhoto',
    (call) => api.calls.indexOf(call) >= from && call.via === waiting.via,
  );
  const markup = sent.params.reply_markup as { inline_keyboard: { callback_data: string }[][] };
  const data = markup.inline_keyboard[0]?.[0]?.callback_data ?? '';
  api.pressButton(allowedUser, data, { chatId: supervisorChat, messageId: 100 });
  const answered = await api.waitForCall(
    'answerCallbackQuery',
    (call) => api.calls.indexOf(call) >= from,
  );
  return { outcome: await outcome, answeredVia: answered.via };
}

describe('Telegram with two replicas on one PostgreSQL', requires('postgres'), () => {
  it('exactly one replica polls; an approval waiting on the other resolves through the bot', async (t) => {
    const api = await startFakeBotApi(token);
    t.after(api.close);
    const replicas = await twoReplicas(t, api);
    const polling = await poller(api, replicas);
    const from = api.calls.length;
    // Several lock retries of the standby (heartbeat 200 ms) and long-poll rounds.
    await sleep(10 * heartbeatMs);
    assert.deepEqual(api.conflicts, [], 'no getUpdates was ended by another one');
    await onlyPoller(api, polling.via, 0, 'only one replica ever polled');
    const standby = replicas.find((r) => r !== polling) as Replica;

    const { outcome, answeredVia } = await approveThroughBot(api, standby);
    assert.equal(outcome.approved, true);
    assert.equal(outcome.by, `telegram:${allowedUser}`);
    assert.equal(answeredVia, polling.via, 'the poller received the press');
    await onlyPoller(api, polling.via, from, 'the standby did not poll');
    assert.deepEqual(api.conflicts, []);
  });

  it("the other replica polls within a heartbeat once the poller's session ends", async (t) => {
    const api = await startFakeBotApi(token);
    t.after(api.close);
    const replicas = await twoReplicas(t, api);
    const first = await poller(api, replicas);
    const second = replicas.find((r) => r !== first) as Replica;

    const ended = performance.now();
    await terminateRoleHolder(
      first.config.databaseUrl ?? '',
      `telegram-poll:${token.split(':')[0]}`,
    );
    await until(() => api.poller() === second.via, takeOverMs, 'the standby polls');
    const tookMs = performance.now() - ended;
    const from = api.calls.length;
    await sleep(5 * heartbeatMs);
    await onlyPoller(api, second.via, from, 'the former poller stopped');
    // The former poller now waits: an approval on it is answered through the new one.
    const { outcome, answeredVia } = await approveThroughBot(api, first);
    assert.equal(outcome.approved, true);
    assert.equal(answeredVia, second.via);

    t.diagnostic(`session ended → the standby polls in ${tookMs.toFixed(0)} ms`);
  });

  it('the other replica polls within a heartbeat once the poller shuts down', async (t) => {
    const api = await startFakeBotApi(token);
    t.after(api.close);
    const replicas = await twoReplicas(t, api);
    const first = await poller(api, replicas);
    const second = replicas.find((r) => r !== first) as Replica;
    const stopped = performance.now();
    await first.close();
    await until(() => api.poller() === second.via, takeOverMs, 'the other polls');
    const tookMs = performance.now() - stopped;
    const { outcome, answeredVia } = await approveThroughBot(api, second);
    assert.equal(outcome.approved, true);
    assert.equal(answeredVia, second.via);
    assert.deepEqual(api.conflicts, [], 'the stopped poller was done before the other began');
    t.diagnostic(`poller shut down → the other polls in ${tookMs.toFixed(0)} ms`);
  });
});
