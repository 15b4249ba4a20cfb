import { AppError } from '../errors.js';
import { TaskEventLog } from './task-events.js';
import type { TaskService } from './task-service.js';

/** The task service when no model is configured: every start is a clear 503. */
export function createUnavailableTaskService(): TaskService {
  return {
    events: new TaskEventLog(),
    async admit() {
      throw new AppError(
        'MODEL_NOT_CONFIGURED',
        'no model is configured: set CLAWDIE_MODEL_URL (and CLAWDIE_MODEL_NAME) or CLAWDIE_REPLAY_FILE and restart',
        { status: 503 },
      );
    },
    async start() {
      throw new Error('no task can be admitted without a model');
    },
    abort: () => false,
    isActive: () => false,
    close: async () => undefined,
  };
}
