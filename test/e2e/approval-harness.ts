// The approval e2e stack: a login page on 127.0.0.1, the real jail-service + Chromium, a replay
// model that records every request, the policed task service with approvals, the Telegram
// notifier against a local Bot API server, the secrets vault; logs captured in memory.
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { VisionModel } from '../../controlplane/src/agent/model/chat-types.js';
import { DEFAULT_IMAGE_ENCODING } from '../../controlplane/src/agent/model/image-encoder.js';
import { createReplayModel } from '../../controlplane/src/agent/model/replay-model.js';
import { uiTars15 } from '../../controlplane/src/agent/profiles/ui-tars.js';
import { createClawdieBrowserOperator } from '../../controlplane/src/browser/operator/clawdie-browser-operator.js';
import { startLocalJailService } from '../../controlplane/src/browser/provider/local-jail-service.js';
import { systemClock } from '../../controlplane/src/clock.js';
import { createApprovalService } from '../../controlplane/src/governance/approvals/approval-service.js';
import { createAuditLog } from '../../controlplane/src/governance/audit/audit-log.js';
import { createGrantAuthority } from '../../controlplane/src/governance/credentials/grant-authority.js';
import {
  createSecretVault,
  loadVaultKey,
} from '../../controlplane/src/governance/credentials/secret-vault.js';
import { createTaskCredentials } from '../../controlplane/src/governance/credentials/task-credentials.js';
import {
  parsePolicy,
  policySetOf,
} from '../../controlplane/src/governance/policy/load-policies.js';
import { createPolicyAdmission } from '../../controlplane/src/governance/policy/task-admission.js';
import { createTaskGuards } from '../../controlplane/src/governance/policy/task-guards.js';
import { createTelegramNotifier } from '../../controlplane/src/ingress/telegram/telegram-notifier.js';
import { createApprovalRepository } from '../../controlplane/src/platform/store/approval-repository.js';
import { createAuditRepository } from '../../controlplane/src/platform/store/audit-repository.js';
import { openDatabase } from '../../controlplane/src/platform/store/database.js';
import { createScreenshotFiles } from '../../controlplane/src/platform/store/screenshot-files.js';
import { createSecretRepository } from '../../controlplane/src/platform/store/secret-repository.js';
import { createTaskRepository } from '../../controlplane/src/platform/store/task-repository.js';
import { createTaskService } from '../../controlplane/src/tasks/task-service.js';
import { startFakeBotApi } from '../controlplane/ingress/telegram/fake-bot-api.js';
import { capturingLogger } from '../support/capturing-logger.js';
import { silentLogger } from '../support/silent-logger.js';
import { testImages } from '../support/test-images.js';
import { testLauncher } from '../support/test-launcher.js';
import { testTaskEventFeed } from '../support/test-task-event-feed.js';

export const telegramToken = '999:e2e-token';
export const supervisorChat = 31337;
export const allowedUser = 5005;

/** Inputs placed absolutely so fixed model coordinates hit them (viewport 1280×800). */
const loginPage = `<!doctype html><html><head><title>Login</title><style>
body{margin:0;font:20px sans-serif} input{position:absolute;left:100px;width:400px;height:60px;font-size:24px}
#u{top:190px} #p{top:290px} h1{position:absolute;left:100px;top:40px;margin:0}</style></head>
<body><h1>Sign in</h1><form method="post" action="/login"><input id="u" name="username" autocomplete="off">
<input id="p" name="password" type="password"><button type="submit" style="position:absolute;left:100px;top:400px">Sign in</button></form></body></html>`;

async function startLoginSite(password: string) {
  const logins: string[] = [];
  const app = new Hono();
  app.get('/login', (c) => c.html(loginPage));
  app.post('/login', async (c) => {
    const form = await c.req.parseBody();
    if (form.username === 'demo' && form.password === password) {
      logins.push(String(form.username));
      return c.html('<!doctype html><title>Account</title><h1 id="ok">Logged in as demo</h1>');
    }
    return c.html('<!doctype html><title>Login failed</title><h1>Wrong password</h1>', 401);
  });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    logins,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

export async function startApprovalHarness(options: { outputs: string[]; timeoutS: number }) {
  const chromium = process.env.CLAWDIE_CHROMIUM_PATH || '/usr/bin/chromium';
  if (!existsSync(chromium)) throw new Error(`approval e2e needs Chromium at ${chromium}`);
  const secret = `Pw-${randomBytes(9).toString('base64url')}`;
  const site = await startLoginSite(secret);
  const jail = await startLocalJailService({
    egressProxyUrl: null,
    launcher: testLauncher,
    env: { ...process.env },
    logger: silentLogger,
  });
  const api = await startFakeBotApi(telegramToken);
  const dataDir = mkdtempSync(join(tmpdir(), 'clawdie-approval-e2e-'));
  const database = openDatabase(join(dataDir, 'clawdie.db'));
  const { logger, lines: logLines } = capturingLogger('trace');
  const audit = createAuditLog(createAuditRepository(database.db), systemClock);
  const vault = createSecretVault(
    createSecretRepository(database.db),
    loadVaultKey(join(dataDir, 'secrets.key'), { create: true }),
  );
  await vault.put('default', 'site_password', secret);
  const approvals = createApprovalService({
    store: createApprovalRepository(database.db),
    audit,
    clock: systemClock,
    logger,
    newId: randomUUID,
  });
  const telegram = createTelegramNotifier({
    token: telegramToken,
    chatIds: [supervisorChat],
    allowedUserIds: [allowedUser],
    apiRoot: api.apiRoot,
    approvals,
    audit,
    logger,
    pollTimeoutSeconds: 1,
  });
  approvals.attach(telegram);
  telegram.start();

  const modelRequests: string[] = [];
  const replay = createReplayModel(options.outputs);
  const model: VisionModel = {
    ...replay,
    name: replay.name,
    isReplay: replay.isReplay,
    complete: (request, signal) => {
      modelRequests.push(JSON.stringify(request.body ?? { messages: request.messages }));
      return replay.complete(request, signal);
    },
  };
  const operator = createClawdieBrowserOperator({
    url: jail.url,
    token: jail.token,
    timeoutMs: 20_000,
  });
  const repository = createTaskRepository(database.db);
  const grants = createGrantAuthority();
  const policy = parsePolicy(
    `tenant: default
domains: { allow: ["${new URL(site.url).host}"] }
max_steps: 10
credentials:
  modes: [none, supervisor_approved]
  secrets: [{ name: site_password, domains: ["127.0.0.1"] }]
approvals: { timeout_s: ${options.timeoutS} }
`,
    'default.yaml',
  );
  const tasks = createTaskService({
    repository,
    feed: testTaskEventFeed(database.db),
    screenshots: createScreenshotFiles(dataDir),
    model,
    operator,
    clock: systemClock,
    images: testImages,
    logger,
    loop: {
      profile: uiTars15,
      actionSpace: 'browser',
      maxSteps: 10,
      maxParseFailures: 3,
      imageWindow: 5,
      imageEncoding: DEFAULT_IMAGE_ENCODING,
      waitMs: 100,
      scrollAmount: 500,
    },
    newId: randomUUID,
    audit,
    admission: createPolicyAdmission({
      policies: policySetOf([policy]),
      audit,
      defaults: { maxSteps: 10 },
    }),
    guards: createTaskGuards({
      audit,
      logger,
      approver: approvals,
      credentials: (taskId, tenant, actor, secrets) =>
        createTaskCredentials({ taskId, tenant, actor, vault, grants, secrets, audit, logger }),
    }),
  });
  return {
    secret,
    site,
    api,
    tasks,
    audit,
    approvals,
    database,
    dataDir,
    logLines,
    modelRequests,
    async close() {
      await tasks.close();
      await telegram.stop();
      await api.close();
      await jail.stop();
      await site.close();
      database.close();
    },
  };
}
