// npm run bench:takeover-notice — time from a task entering needs_user to the supervisors'
// Telegram message arriving at the local Bot API server: status change, link signing, a real
// screenshot of a real jail-service (Chromium) and grammy's sendPhoto upload, over loopback.
import { randomUUID } from 'node:crypto';
import { loadConfig, startJailService } from '@clawdie/jail-service/server';
import { createClawdieBrowserOperator } from '../controlplane/src/browser/operator/clawdie-browser-operator.js';
import { createTakeover } from '../controlplane/src/browser/takeover/takeover-wiring.js';
import { createTaskHandoff } from '../controlplane/src/browser/takeover/task-handoff.js';
import { systemClock } from '../controlplane/src/clock.js';
import { createNoticeSender } from '../controlplane/src/governance/approvals/notice-sender.js';
import { discardAuditLog } from '../controlplane/src/governance/audit/audit-log.js';
import { createTelegramNotifier } from '../controlplane/src/ingress/telegram/telegram-notifier.js';
import { openDatabase } from '../controlplane/src/platform/store/database.js';
import { createTaskRepository } from '../controlplane/src/platform/store/task-repository.js';
import { startFakeBotApi } from '../test/controlplane/ingress/telegram/fake-bot-api.js';
import { startLoginWallSite } from '../test/support/login-wall-site.js';
import { silentLogger } from '../test/support/silent-logger.js';
import { percentile, round, summarise } from './bench-stats.js';

const runs = Number(process.env.BENCH_RUNS ?? 30);
const token = 'bench-notice-token-0123456789abcdef';
const botToken = '321:bench';

const site = await startLoginWallSite();
const jail = await startJailService(
  loadConfig({
    CLAWDIE_JAIL_TOKEN: token,
    CLAWDIE_JAIL_PORT: '0',
    CLAWDIE_CHROMIUM_PATH: process.env.CLAWDIE_CHROMIUM_PATH || '/usr/bin/chromium',
  }),
  silentLogger,
);
const operator = createClawdieBrowserOperator({ url: jail.url, token, timeoutMs: 20_000 });
await operator.execute([{ type: 'navigate', url: `${site.url}/login` }]);
const api = await startFakeBotApi(botToken);
const telegram = createTelegramNotifier({
  token: botToken,
  chatIds: [1],
  allowedUserIds: [1],
  apiRoot: api.apiRoot,
  approvals: {
    answer: () => {
      throw new Error('no approvals in this bench');
    },
    get: async () => null,
  },
  audit: discardAuditLog,
  logger: silentLogger,
  pollTimeoutSeconds: 1,
});
telegram.start();
const database = openDatabase(':memory:');
const repository = createTaskRepository(database.db);
const takeover = createTakeover({
  publicUrl: 'http://127.0.0.1:8700',
  linkTtlMs: 600_000,
  repository,
  audit: discardAuditLog,
  clock: systemClock,
  logger: silentLogger,
  notify: createNoticeSender({
    notifiers: [telegram],
    audit: discardAuditLog,
    logger: silentLogger,
  }),
});

try {
  const sample: number[] = [];
  for (let i = 0; i < runs; i++) {
    const taskId = randomUUID();
    const before = api.calls.length;
    const handoff = createTaskHandoff(takeover.tasks, {
      taskId,
      tenant: 'acme',
      policy: { on: ['login'], timeout_s: 60, on_timeout: 'end_call_user' },
      endpoint: { url: jail.url, token },
      onNeedsUser: () => undefined,
      screenshot: async () => Buffer.from((await operator.screenshot()).jpeg),
    });
    const started = performance.now();
    const waiting = handoff.request({ reason: 'login', step: 1, summary: null });
    await api.waitForCall('sendPhoto', (call) => api.calls.indexOf(call) >= before);
    sample.push(performance.now() - started);
    takeover.tasks.registry.get(taskId)?.handBack({ note: null, by: 'bench' });
    await waiting;
  }
  const report = {
    runs,
    needs_user_to_telegram_ms: { ...summarise(sample), p95: round(percentile(sample, 95)) },
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
} finally {
  await telegram.stop();
  await api.close();
  await jail.close();
  await site.close();
  database.close();
}
