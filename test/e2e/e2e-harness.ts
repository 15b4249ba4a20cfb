import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_IMAGE_ENCODING } from '../../controlplane/src/agent/model/image-encoder.js';
import { createOpenAiCompatibleModel } from '../../controlplane/src/agent/model/openai-compatible-model.js';
import { uiTars15 } from '../../controlplane/src/agent/profiles/ui-tars.js';
import { createClawdieBrowserOperator } from '../../controlplane/src/browser/operator/clawdie-browser-operator.js';
import {
  type LocalJailService,
  startLocalJailService,
} from '../../controlplane/src/browser/provider/local-jail-service.js';
import { systemClock } from '../../controlplane/src/clock.js';
import { allowAllAdmission } from '../../controlplane/src/governance/policy/task-admission.js';
import { startDemoSite } from '../../controlplane/src/platform/demo/demo-site-server.js';
import { openDatabase } from '../../controlplane/src/platform/store/database.js';
import { createScreenshotFiles } from '../../controlplane/src/platform/store/screenshot-files.js';
import {
  createTaskRepository,
  type TaskRepository,
} from '../../controlplane/src/platform/store/task-repository.js';
import type { TaskServiceDeps } from '../../controlplane/src/tasks/task-service.js';
import { silentLogger } from '../support/silent-logger.js';
import { testImages } from '../support/test-images.js';
import { testLauncher } from '../support/test-launcher.js';
import { testTaskEventFeed } from '../support/test-task-event-feed.js';
import { startUiTarsTestModel, type UiTarsTestModel } from '../support/uitars-test-model.js';

export interface E2eHarness {
  siteUrl: string;
  jail: LocalJailService;
  model: UiTarsTestModel;
  repository: TaskRepository;
  dataDir: string;
  deps(overrides?: { modelTimeoutMs?: number; retries?: number }): TaskServiceDeps;
  close(): Promise<void>;
}

/**
 * The real stack on loopback: the demo shop, a jail-service child process driving Debian
 * Chromium, the scripted UI-TARS-1.5 server (computing coordinates from the live page), a
 * file-backed SQLite store. Only the model's judgement is scripted.
 */
export async function startE2eHarness(jailEnv: Record<string, string> = {}): Promise<E2eHarness> {
  const chromium = process.env.CLAWDIE_CHROMIUM_PATH || '/usr/bin/chromium';
  if (!existsSync(chromium))
    throw new Error(
      `e2e needs Chromium at ${chromium}: run npm test (it installs it as root) or apt-get install chromium`,
    );
  const site = await startDemoSite();
  const jail = await startLocalJailService({
    egressProxyUrl: null,
    launcher: testLauncher,
    env: { ...process.env, ...jailEnv },
    logger: silentLogger,
  });
  const model = await startUiTarsTestModel({ jailUrl: jail.url, jailToken: jail.token });
  const dataDir = mkdtempSync(join(tmpdir(), 'clawdie-e2e-'));
  const database = openDatabase(join(dataDir, 'clawdie.db'));
  const repository = createTaskRepository(database.db);
  const operator = createClawdieBrowserOperator({
    url: jail.url,
    token: jail.token,
    timeoutMs: 20_000,
  });
  return {
    siteUrl: site.url,
    jail,
    model,
    repository,
    dataDir,
    deps: (overrides = {}) => ({
      repository,
      feed: testTaskEventFeed(database.db),
      screenshots: createScreenshotFiles(dataDir),
      model: createOpenAiCompatibleModel({
        baseUrl: model.baseUrl,
        model: 'ui-tars-1.5-test',
        timeoutMs: overrides.modelTimeoutMs ?? 20_000,
        retries: overrides.retries ?? 0,
        maxTokens: 1024,
        temperature: 0,
        backoffMs: 10,
      }),
      operator,
      clock: systemClock,
      images: testImages,
      logger: silentLogger,
      loop: {
        profile: uiTars15,
        actionSpace: 'browser',
        maxSteps: 15,
        maxParseFailures: 3,
        imageWindow: 5,
        imageEncoding: DEFAULT_IMAGE_ENCODING,
        waitMs: 100,
        scrollAmount: 500,
      },
      newId: () => crypto.randomUUID(),
      admission: allowAllAdmission('e2e harness: no tenant policy'),
    }),
    async close() {
      await model.close();
      await jail.stop();
      await site.close();
      database.close();
    },
  };
}
