// The takeover e2e stack: the login-wall site, the real jail-service + Chromium (device scale 2),
// a scripted model recording every request, the policed task service with `handoff`, the
// Telegram notifier against the local Bot API server, the REST app with JWT auth served on
// loopback (links point at it); logs of the controlplane and the jail-service captured in memory.

import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { createNoticeSender } from '../../controlplane/src/approvals/notice-sender.js';
import { createAuditLog } from '../../controlplane/src/audit/audit-log.js';
import { createSingleBrowserProvider } from '../../controlplane/src/browsers/browser-provider.js';
import { startLocalJailService } from '../../controlplane/src/browsers/local-jail-service.js';
import { type Clock, systemClock } from '../../controlplane/src/clock.js';
import { createApp } from '../../controlplane/src/http/app.js';
import type { VisionModel } from '../../controlplane/src/model/chat-types.js';
import { createClawdieBrowserOperator } from '../../controlplane/src/operator/clawdie-browser-operator.js';
import { parsePolicy, policySetOf } from '../../controlplane/src/policy/load-policies.js';
import { createPolicyAdmission } from '../../controlplane/src/policy/task-admission.js';
import { createTaskGuards } from '../../controlplane/src/policy/task-guards.js';
import { createAuditRepository } from '../../controlplane/src/store/audit-repository.js';
import { openDatabase } from '../../controlplane/src/store/database.js';
import { createScreenshotFiles } from '../../controlplane/src/store/screenshot-files.js';
import { createTaskRepository } from '../../controlplane/src/store/task-repository.js';
import { TaskEventLog } from '../../controlplane/src/tasks/task-events.js';
import { createTaskService } from '../../controlplane/src/tasks/task-service.js';
import { createTelegramNotifier } from '../../controlplane/src/telegram/telegram-notifier.js';
import { createAuthFixture } from '../controlplane/auth/auth-fixture.js';
import { startFakeBotApi } from '../controlplane/telegram/fake-bot-api.js';
import { startLoginWallSite } from '../support/login-wall-site.js';
import { createPerTaskScriptModel } from '../support/per-task-script-model.js';
import { createTakeoverFixture } from '../support/takeover-fixture.js';
import { testImages } from '../support/test-images.js';
import { testLauncher } from '../support/test-launcher.js';
import { serveApp } from './dashboard-support.js';

export const telegramToken = '998:takeover-token';
export const operatorChat = 41414;

export async function startTakeoverHarness(options: {
  outputs: string[];
  on?: string[];
  timeoutS?: number;
  onTimeout?: 'end_call_user' | 'abort';
}) {
  const site = await startLoginWallSite();
  const logLines: string[] = [];
  const logger = pino(
    { level: 'trace' },
    new Writable({
      write(chunk, _encoding, done) {
        logLines.push(String(chunk));
        done();
      },
    }),
  );
  const jail = await startLocalJailService({
    env: { ...process.env, CLAWDIE_JAIL_DEVICE_SCALE_FACTOR: '2', CLAWDIE_LOG_LEVEL: 'debug' },
    logger,
    launcher: testLauncher,
  });
  const api = await startFakeBotApi(telegramToken);
  const dataDir = mkdtempSync(join(tmpdir(), 'clawdie-takeover-e2e-'));
  const database = openDatabase(join(dataDir, 'clawdie.db'));
  const audit = createAuditLog(createAuditRepository(database.db), systemClock);
  const telegram = createTelegramNotifier({
    token: telegramToken,
    chatIds: [operatorChat],
    allowedUserIds: [1],
    apiRoot: api.apiRoot,
    approvals: { answer: () => undefined, get: () => undefined } as never,
    audit,
    logger,
    pollTimeoutSeconds: 1,
  });
  telegram.start();
  const modelRequests: string[] = [];
  const script = createPerTaskScriptModel(options.outputs);
  const model: VisionModel = {
    ...script,
    complete: async (request, signal) => {
      modelRequests.push(JSON.stringify(request));
      const reply = await script.complete(request, signal);
      modelRequests.push(JSON.stringify(reply));
      return reply;
    },
  };
  const endpoint = { url: jail.url, token: jail.token };
  const operator = createClawdieBrowserOperator({ ...endpoint, timeoutMs: 20_000 });
  const repository = createTaskRepository(database.db);
  const on = options.on ?? ['call_user', 'login', 'otp', 'captcha'];
  const policy = parsePolicy(
    `tenant: acme
domains: { allow: ["${new URL(site.url).host}"] }
max_steps: 10
handoff: { on: [${on.join(', ')}], timeout_s: ${options.timeoutS ?? 120}, on_timeout: ${options.onTimeout ?? 'end_call_user'} }
`,
    'acme.yaml',
  );
  const other = parsePolicy(
    'tenant: beta\ndomains: { allow: ["example.org"] }\nmax_steps: 3\n',
    'beta.yaml',
  );
  // Links are checked on their own clock, so a test can move it past a link's expiry.
  const linkSkew = { ms: 0 };
  const linkClock: Clock = { ...systemClock, now: () => Date.now() + linkSkew.ms };
  const notify = createNoticeSender({ notifiers: [telegram], audit, logger });
  const takeover = createTakeoverFixture({
    repository,
    audit,
    clock: systemClock,
    linkClock,
    notify,
    logger,
  });
  const events = new TaskEventLog();
  const tasks = createTaskService(
    {
      repository,
      screenshots: createScreenshotFiles(dataDir),
      images: testImages,
      model,
      operator,
      clock: systemClock,
      logger,
      loop: {
        coordinateMode: '1.5',
        actionSpace: 'browser',
        maxSteps: 10,
        maxParseFailures: 3,
        imageWindow: 5,
        jpegQuality: 80,
        waitMs: 100,
        scrollAmount: 500,
      },
      newId: randomUUID,
      audit,
      admission: createPolicyAdmission({
        policies: policySetOf([policy, other]),
        audit,
        defaults: { maxSteps: 10 },
      }),
      guards: createTaskGuards({ audit, logger }),
      takeover: takeover.tasks,
    },
    events,
    createSingleBrowserProvider(operator, endpoint),
  );
  const auth = await createAuthFixture();
  const app = createApp({
    tasks,
    repository,
    logger,
    defaultMaxSteps: 10,
    describe: () => ({ model: { name: 'script', replay: true }, jail: { url: jail.url } }),
    auth: { verifier: auth.verifier },
    audit,
    takeover: takeover.app,
  });
  const served = await serveApp(app);
  // Links point at the served app (known once it listens).
  takeover.tasks.publicUrl = served.url;
  takeover.app.publicUrl = served.url;
  return {
    site,
    jail,
    api,
    tasks,
    audit,
    database,
    dataDir,
    logLines,
    modelRequests,
    takeover,
    auth,
    linkSkew,
    url: served.url,
    async close() {
      await tasks.close();
      await served.close();
      await telegram.stop();
      await api.close();
      await jail.stop();
      await site.close();
      database.close();
    },
  };
}
