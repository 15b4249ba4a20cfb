import type { Logger } from 'pino';
import type { NoticeSender } from '../approvals/notice-sender.js';
import type { BrowserOperator } from '../operator/browser-operator.js';
import type { NumberedEvent, TaskEventLog } from '../tasks/task-events.js';

export interface StuckNoticeOptions {
  events: TaskEventLog;
  taskId: string;
  tenant: string;
  /** The task's browser: its current screen goes along with the notice when it can be taken. */
  operator: BrowserOperator;
  send: NoticeSender;
  logger: Logger;
}

/**
 * Sends every `stuck` event of one task to the operators exactly once — those already in the
 * log, then live ones — until the returned unsubscribe is called (when the task ends). Sending
 * happens in the background and never throws into the task.
 */
export function relayStuckEvents(options: StuckNoticeOptions): () => void {
  const { events, taskId } = options;
  let seen = 0;
  const handle = ({ id, event }: NumberedEvent) => {
    if (id <= seen) return;
    seen = id;
    if (event.type !== 'stuck') return;
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
          step: event.data.step,
          summary: event.data.summary,
          screenshot,
        }),
      )
      .catch((error: unknown) =>
        options.logger.error({ err: error, taskId }, 'stuck notice failed'),
      );
  };
  for (const entry of events.since(taskId, 0)) handle(entry);
  return events.subscribe(taskId, handle);
}
