import type { VisionModel } from '../../../../controlplane/src/agent/model/chat-types.js';
import { createNoticeSender } from '../../../../controlplane/src/governance/approvals/notice-sender.js';
import type { Notifier } from '../../../../controlplane/src/governance/approvals/notifier.js';
import { createAuditLog } from '../../../../controlplane/src/governance/audit/audit-log.js';
import {
  parsePolicy,
  policySetOf,
} from '../../../../controlplane/src/governance/policy/load-policies.js';
import { createPolicyAdmission } from '../../../../controlplane/src/governance/policy/task-admission.js';
import { createTaskGuards } from '../../../../controlplane/src/governance/policy/task-guards.js';
import { createAuditRepository } from '../../../../controlplane/src/platform/store/audit-repository.js';
import { openDatabase } from '../../../../controlplane/src/platform/store/database.js';
import { createTaskService } from '../../../../controlplane/src/tasks/task-service.js';
import { createFakeOperator } from '../../../support/fake-operator.js';
import { createManualClock } from '../../../support/manual-clock.js';
import { silentLogger } from '../../../support/silent-logger.js';
import { createTestTaskDeps } from '../../../support/test-task-deps.js';

const CLICK = "Thought: Click Save.\nAction: click(start_box='<|box_start|>(300,200)<|box_end|>')";

/**
 * A policed TaskService whose model keeps clicking a failing button, 40 s of (manual) time per
 * call: the loop guard reports task-stuck once 100 s passed (after step 3), and the task ends
 * at max_steps (4). Stuck notices go to `notifiers` through the real notice sender; the array
 * is read at send time, so a notifier built on the fixture's audit log can be pushed afterwards.
 */
export function createStuckFixture(notifiers: Notifier[]) {
  const clock = createManualClock();
  const model: VisionModel = {
    name: 'scripted',
    isReplay: true,
    async complete() {
      clock.advance(40_000);
      return { text: CLICK, requestBytes: 1, usage: null };
    },
  };
  const fake = createFakeOperator({ failType: 'click' });
  const { deps, close } = createTestTaskDeps({
    model,
    operator: fake.operator,
    loop: { maxSteps: 4, guard: { stuckAfterMs: 100_000 } },
  });
  const database = openDatabase(':memory:');
  const audit = createAuditLog(createAuditRepository(database.db), clock);
  const policies = policySetOf([
    parsePolicy('tenant: default\ndomains: { allow: ["*"] }\nmax_steps: 10\n', 'default.yaml'),
  ]);
  const tasks = createTaskService({
    ...deps,
    clock,
    audit,
    admission: createPolicyAdmission({ policies, audit, defaults: { maxSteps: 4 } }),
    guards: createTaskGuards({
      audit,
      logger: silentLogger,
      notices: createNoticeSender({ notifiers, audit, logger: silentLogger }),
    }),
  });
  return {
    tasks,
    audit,
    /** `notifier-failed` rows written for notices (not for approvals or polling). */
    noticeFailures: async () =>
      (await audit.list({ limit: 500 })).filter(
        (row) => row.type === 'notifier-failed' && row.data.what === 'notice',
      ),
    async close() {
      await tasks.close();
      database.close();
      close();
    },
  };
}

/** Polls `condition` on real time (background sends), failing after `timeoutMs`. */
export async function eventually(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 5_000,
) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
