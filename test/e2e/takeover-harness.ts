// The takeover e2e stack on `npm start`'s composition root (createTestControlplane, role server):
// the login-wall site; a real local jail-service + Chromium at device scale 2, reached as
// CLAWDIE_JAIL_URL; a scripted model recording every request; tenant policies with `handoff` in
// CLAWDIE_POLICY_DIR; Telegram via CLAWDIE_TELEGRAM_* at the local Bot API server; JWT auth from
// a JWKS file (CLAWDIE_AUTH_JWKS_FILE); served on loopback (links point at it). Logs of the
// controlplane and the jail-service are captured in memory.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalJailService } from '../../controlplane/src/browser/provider/local-jail-service.js';
import { type Clock, systemClock } from '../../controlplane/src/clock.js';
import { openDatabase } from '../../controlplane/src/platform/store/database.js';
import { createAuthFixture } from '../controlplane/governance/auth/auth-fixture.js';
import { startFakeBotApi } from '../controlplane/ingress/telegram/fake-bot-api.js';
import { capturingLogger } from '../support/capturing-logger.js';
import { createTestControlplane } from '../support/controlplane.js';
import { startLoginWallSite } from '../support/login-wall-site.js';
import { createPerTaskScriptModel } from '../support/per-task-script-model.js';
import { testLauncher } from '../support/test-launcher.js';
import { recordingModel } from './support/leak-search.js';
import { until } from './takeover-supervisor.js';

export const telegramToken = '998:takeover-token';
export const supervisorChat = 41414;

/**
 * The root's clock, moved forward by `skew.ms` while a test checks a link past its expiry. The
 * root's ONE clock also stamps audit rows and task times and times takeover deadlines and
 * sessions, approvals, session profiles and the data-dir heartbeat: a test keeps the skew for one
 * request only, while the task waits for a person and nothing else runs.
 */
function skewedClock(): { clock: Clock; skew: { ms: number } } {
  const skew = { ms: 0 };
  return { clock: { ...systemClock, now: () => Date.now() + skew.ms }, skew };
}

export async function startTakeoverHarness(options: {
  outputs: string[];
  on?: string[];
  timeoutS?: number;
  onTimeout?: 'end_call_user' | 'abort';
  /** More CLAWDIE_* settings (e.g. CLAWDIE_ADMIN_TOKEN for the dashboard). */
  env?: Record<string, string>;
}) {
  const site = await startLoginWallSite();
  const { logger, lines: logLines } = capturingLogger('trace');
  const jail = await startLocalJailService({
    egressProxyUrl: null,
    env: { ...process.env, CLAWDIE_JAIL_DEVICE_SCALE_FACTOR: '2', CLAWDIE_LOG_LEVEL: 'debug' },
    logger,
    launcher: testLauncher,
  });
  const api = await startFakeBotApi(telegramToken);
  const auth = await createAuthFixture();
  const policyDir = mkdtempSync(join(tmpdir(), 'clawdie-takeover-policies-'));
  const on = options.on ?? ['call_user', 'login', 'otp', 'captcha'];
  writeFileSync(
    join(policyDir, 'acme.yaml'),
    `tenant: acme
domains: { allow: ["${new URL(site.url).host}"] }
max_steps: 10
handoff: { on: [${on.join(', ')}], timeout_s: ${options.timeoutS ?? 120}, on_timeout: ${options.onTimeout ?? 'end_call_user'} }
`,
  );
  for (const tenant of ['beta', 'default'])
    writeFileSync(
      join(policyDir, `${tenant}.yaml`),
      `tenant: ${tenant}\ndomains: { allow: ["example.org"] }\nmax_steps: 3\n`,
    );
  const modelRequests: string[] = [];
  const { clock, skew: linkSkew } = skewedClock();
  const stopFixtures = async () => {
    await api.close();
    await jail.stop();
    await site.close();
    rmSync(policyDir, { recursive: true, force: true });
  };
  const controlplane = await createTestControlplane({
    role: 'server',
    browsers: 'config',
    model: recordingModel(createPerTaskScriptModel(options.outputs), modelRequests),
    clock,
    logger,
    env: {
      CLAWDIE_JAIL_URL: jail.url,
      CLAWDIE_JAIL_TOKEN: jail.token,
      CLAWDIE_POLICY_DIR: policyDir,
      CLAWDIE_AUTH_REQUIRED: 'true',
      CLAWDIE_AUTH_JWKS_FILE: auth.file,
      CLAWDIE_AUTH_FAILURE_LIMIT: '1000',
      CLAWDIE_TELEGRAM_BOT_TOKEN: telegramToken,
      CLAWDIE_TELEGRAM_CHAT_IDS: String(supervisorChat),
      CLAWDIE_TELEGRAM_ALLOWED_USER_IDS: '1',
      CLAWDIE_TELEGRAM_API_ROOT: api.apiRoot,
      CLAWDIE_MAX_STEPS: '10',
      CLAWDIE_WAIT_MS: '100',
      ...options.env,
    },
  }).catch(async (error: unknown) => {
    await stopFixtures();
    throw error;
  });
  // Links point at the served app (the root learns its address when it listens).
  const url = await controlplane.serve();
  // A second connection for the leak search (WAL: it sees every committed row).
  const database = openDatabase(controlplane.config.databasePath);
  return {
    site,
    jail,
    api,
    tasks: controlplane.tasks,
    audit: controlplane.audit,
    database,
    dataDir: controlplane.dataDir,
    logLines,
    modelRequests,
    takeover: controlplane.takeover,
    auth,
    linkSkew,
    url,
    async close() {
      database.close();
      await controlplane.close();
      await stopFixtures();
    },
  };
}

type TakeoverHarness = Awaited<ReturnType<typeof startTakeoverHarness>>;

/**
 * Starts a task for tenant acme as a runner that may also operate, and waits until the model's
 * call_user leaves it `needs_user`; `rest` sends the runner's token.
 */
export async function startTaskNeedingUser(
  harness: TakeoverHarness,
  task: { instruction: string; startPath: string },
) {
  const runner = await harness.auth.token(['tasks:run', 'tasks:read', 'operate'], 'acme');
  const rest = (path: string, init: RequestInit = {}) =>
    fetch(`${harness.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${runner}`, 'content-type': 'application/json' },
    });
  const started = await rest('/v1/tasks', {
    method: 'POST',
    body: JSON.stringify({
      instruction: task.instruction,
      start_url: `${harness.site.url}${task.startPath}`,
    }),
  });
  assert.equal(started.status, 202, await started.clone().text());
  const { trace_id: taskId } = (await started.json()) as { trace_id: string };
  const status = async () =>
    ((await (await rest(`/v1/tasks/${taskId}`)).json()) as { task: { status: string } }).task
      .status;
  await until('needs_user', async () => (await status()) === 'needs_user');
  return { rest, taskId, status };
}
