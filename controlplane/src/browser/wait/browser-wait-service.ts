import type { ImageCodec } from '@clawdie/kit/images';
import { systemClock } from '../../clock.js';
import { AppError, NotFoundError } from '../../errors.js';
import type { BrowserOperator } from '../operator/browser-operator.js';
import type { JailEndpoint } from '../provider/browser-provider.js';
import type { TaskBrowsers } from '../provider/task-browsers.js';
import { createJailPageProbe, operatorFrames } from './jail-page-probe.js';
import { WaitEngine } from './wait-engine.js';
import type { JobTarget } from './wait-job.js';
import { createWaitService, type WaitService } from './wait-service.js';
import type { VisualJudge } from './wait-types.js';

/**
 * `/v1/waits` over the browsers tasks run on: with `task_id`, the screen and page state of the
 * browser that task holds now; without, the controlplane's one local browser (an error when tasks
 * run in hostd clones and there is no such browser).
 */
export function createBrowserWaitService(options: {
  browsers: TaskBrowsers;
  local: { operator: BrowserOperator; jail: JailEndpoint } | null;
  /** The process's image codec. */
  images: ImageCodec;
  /** The process's vision judge; without one a visual condition is refused (400). */
  judge?: VisualJudge | undefined;
}): WaitService {
  const engine = new WaitEngine({
    clock: systemClock,
    images: options.images,
    judge: options.judge,
  });
  const local: JobTarget | null = options.local
    ? {
        frames: operatorFrames(options.local.operator, 'local', { hideCaret: true }),
        probe: createJailPageProbe(options.local.jail),
      }
    : null;
  return createWaitService(engine, (taskId) => {
    if (taskId !== undefined) {
      const lease = options.browsers.get(taskId);
      if (!lease) throw new NotFoundError(`task ${taskId} is not running, so it has no screen`);
      if (lease.id === 'local' && local) return local;
      return {
        frames: operatorFrames(lease.operator, lease.id, { hideCaret: true }),
        ...(lease.service ? { probe: createJailPageProbe(lease.service) } : {}),
      };
    }
    if (local) return local;
    throw new AppError(
      'TASK_ID_REQUIRED',
      "tasks run in their own hostd clones: pass task_id to watch a running task's browser",
      { status: 400 },
    );
  });
}
