// The gated half of `npm run bench:step` (issue 20): one click as the loop now runs it — its
// landing (`POST /landing`), the policy decision against it with the decision audited to a real
// SQLite audit chain, then the click alone with `expect` pinned from the landing. Until the
// jail-service serves /landing (its side of issue 20), the landing is stood in for by `GET /state`
// (the same HTTP round trip through the same queue, without the DOM hit test) and the bench says so.
import { runActions } from '../controlplane/src/agent/loop/run-actions.js';
import { createReplayModel } from '../controlplane/src/agent/model/replay-model.js';
import { parsePrediction, toBrowserActions } from '../controlplane/src/agent/uitars/index.js';
import type { BrowserOperator } from '../controlplane/src/browser/operator/browser-operator.js';
import { systemClock } from '../controlplane/src/clock.js';
import { OperatorError } from '../controlplane/src/errors.js';
import { createAuditLog } from '../controlplane/src/governance/audit/audit-log.js';
import { createActionGate } from '../controlplane/src/governance/policy/action-gate.js';
import { policySchema } from '../controlplane/src/governance/policy/policy-schema.js';
import { createAuditRepository } from '../controlplane/src/platform/store/audit-repository.js';
import { openDatabase } from '../controlplane/src/platform/store/database.js';
import { silentLogger } from '../test/support/silent-logger.js';
import { testImages } from '../test/support/test-images.js';

/** Whether the jail-service answers `POST /landing`; else a `GET /state` stand-in is used. */
export async function landingMode(
  operator: BrowserOperator,
): Promise<'landing' | 'state stand-in'> {
  try {
    await operator.landing({ type: 'click', x: 5, y: 5 });
    return 'landing';
  } catch (error) {
    if (error instanceof OperatorError && error.code === 'OPERATOR_REJECTED')
      return 'state stand-in';
    throw error;
  }
}

/** A step function: screenshot, then one click through the gate (landing, decision, audit, run). */
export function createGatedStep(operator: BrowserOperator, mode: 'landing' | 'state stand-in') {
  const database = openDatabase(':memory:');
  const audit = createAuditLog(createAuditRepository(database.db), systemClock);
  const landed: BrowserOperator =
    mode === 'landing'
      ? operator
      : {
          ...operator,
          async landing(_action, signal) {
            const state = await operator.state(signal);
            const origin = new URL(state.url).origin;
            const frames = [{ url: state.url, origin }];
            return {
              url: state.url,
              document_id: '',
              target: { frames, element: null, destination: null },
              source: null,
            };
          },
        };
  const policy = policySchema.parse({
    tenant: 'bench',
    domains: { allow: ['*'] },
    max_steps: 10,
    approvals: {
      actions: [{ action: '*', hosts: ['pay.example'], decision: 'deny', reason: 'not here' }],
    },
  });
  const gate = createActionGate({
    taskId: 'bench',
    tenant: 'bench',
    actor: 'system',
    policy,
    taskDomains: undefined,
    credentialMode: 'none',
    operator,
    audit,
    logger: silentLogger,
  });
  const parsed = parsePrediction("Action: click(start_box='(5,5)')");
  if (!parsed.success) throw new Error('bench reply did not parse');
  let step = 0;
  return {
    async run(): Promise<void> {
      const shot = await operator.screenshot();
      const { meta } = shot;
      const plan = toBrowserActions(parsed.data.actions, {
        mode: '1.5',
        screenshot: { width: meta.imageWidth, height: meta.imageHeight },
        devicePixelRatio: meta.devicePixelRatio,
        viewport: { width: meta.viewportWidth, height: meta.viewportHeight },
        waitMs: 0,
        scrollAmount: 500,
      });
      if (!plan.success) throw new Error(plan.error.message);
      step += 1;
      const steps = plan.steps.filter((planned) => planned.kind === 'browser');
      const outcome = await runActions(step, steps, {
        model: createReplayModel([]),
        operator: landed,
        clock: systemClock,
        images: testImages,
        emit: () => undefined,
        gate,
      });
      if (outcome.kind !== 'done') throw new Error(`gated click: ${outcome.kind}`);
    },
    close: () => database.close(),
  };
}
