import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { VisionModel } from '../../controlplane/src/agent/model/chat-types.js';
import { DEFAULT_IMAGE_ENCODING } from '../../controlplane/src/agent/model/image-encoder.js';
import { uiTars15 } from '../../controlplane/src/agent/profiles/ui-tars.js';
import type { BrowserOperator } from '../../controlplane/src/browser/operator/browser-operator.js';
import { allowAllAdmission } from '../../controlplane/src/governance/policy/task-admission.js';
import { type Db, openDatabase } from '../../controlplane/src/platform/store/database.js';
import { createScreenshotFiles } from '../../controlplane/src/platform/store/screenshot-files.js';
import {
  createTaskRepository,
  type TaskRepository,
} from '../../controlplane/src/platform/store/task-repository.js';
import type { LoopDefaults } from '../../controlplane/src/tasks/task-deps.js';
import type { TaskServiceDeps } from '../../controlplane/src/tasks/task-service.js';
import { createFakeOperator } from './fake-operator.js';
import { createManualClock } from './manual-clock.js';
import { silentLogger } from './silent-logger.js';
import { testImages } from './test-images.js';
import { testTaskEventFeed } from './test-task-event-feed.js';

/** Loop options for tests: UI-TARS-1.5 coordinates, browser action space, instant waits. */
export function testLoopOptions(overrides: Partial<LoopDefaults> = {}): LoopDefaults {
  return {
    profile: uiTars15,
    actionSpace: 'browser',
    maxSteps: 10,
    maxParseFailures: 3,
    imageWindow: 5,
    imageEncoding: DEFAULT_IMAGE_ENCODING,
    waitMs: 0,
    scrollAmount: 500,
    ...overrides,
  };
}

/** Sequential, well-formed task ids: `00000000-0000-4000-8000-000000000001`, … */
export function sequentialIds(): () => string {
  let n = 0;
  return () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
}

export interface TestTaskDeps {
  /** For createTaskService and runTestTask (admission without a tenant policy). */
  deps: TaskServiceDeps;
  repository: TaskRepository;
  /** The SQLite database the repository and the event feed use. */
  db: Db;
  dataDir: string;
  close(): void;
}

/**
 * Everything createTaskService / runTestTask need, real where it can be (SQLite, files on
 * disk) and faked where it must be (browser, model, clock): the fake operator unless one is given.
 */
export function createTestTaskDeps(options: {
  model: VisionModel;
  operator?: BrowserOperator;
  loop?: Partial<LoopDefaults>;
  databasePath?: string;
  /** The instance id recorded as the owner of the tasks created (see data-dir-owner.ts). */
  owner?: string;
}): TestTaskDeps {
  const database = openDatabase(options.databasePath ?? ':memory:');
  const repository = createTaskRepository(
    database.db,
    options.owner ? { owner: options.owner } : {},
  );
  const dataDir = mkdtempSync(join(tmpdir(), 'clawdie-test-'));
  return {
    repository,
    db: database.db,
    dataDir,
    close: database.close,
    deps: {
      repository,
      feed: testTaskEventFeed(database.db),
      screenshots: createScreenshotFiles(dataDir),
      model: options.model,
      operator: options.operator ?? createFakeOperator().operator,
      clock: createManualClock(),
      images: testImages,
      logger: silentLogger,
      loop: testLoopOptions(options.loop),
      newId: sequentialIds(),
      admission: allowAllAdmission('test task deps: no tenant policy'),
    },
  };
}
