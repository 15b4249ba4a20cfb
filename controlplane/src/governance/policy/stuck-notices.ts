import type { Logger } from 'pino';
import type { LoopEvent } from '../../agent/loop/loop-types.js';
import type { BrowserOperator } from '../../browser/operator/browser-operator.js';
import type { RunEvents } from '../../tasks/run-stream.js';
import type { NoticeSender } from '../approvals/notice-sender.js';

export interface StuckNoticeOptions {
  /** The task run's event stream. */
  events: RunEvents;
  taskId: string;
  tenant: string;
  /** The task's browser: its current screen goes along with the notice when it can be taken. */
  operator: BrowserOperator;
  send: NoticeSender;
  logger: Logger;
}

/**
 * Sends each `task-stuck` event of one task run to the supervisors, once, until the returned
 * unsubscribe is called (when the task ends). Sending happens in the background and never throws
 * into the task.
 */
export function relayStuckEvents(options: StuckNoticeOptions): () => void {
  const { events, taskId } = options;
  const handle = (event: LoopEvent) => {
    if (event.type !== 'task-stuck') return;
    void options.operator
      .screenshot()
      .then(
        (shot) => shot.jpeg,
        () => null,
      )
      .then((screenshot) =>
        options.send({
          kind: 'stuck',
          taskId,
          tenant: options.tenant,
          step: event.step,
          summary: event.summary,
          screenshot,
        }),
      )
      .catch((error: unknown) =>
        options.logger.error({ err: error, taskId }, 'stuck notice failed'),
      );
  };
  return events.subscribe(handle);
}
