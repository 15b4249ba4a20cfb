import { createReplayModel } from '../../../../controlplane/src/agent/model/replay-model.js';
import type { BrowserOperator } from '../../../../controlplane/src/browser/operator/browser-operator.js';
import type { BrowserProvider } from '../../../../controlplane/src/browser/provider/browser-provider.js';
import type { Approver } from '../../../../controlplane/src/governance/approvals/approval-types.js';
import { createAuditLog } from '../../../../controlplane/src/governance/audit/audit-log.js';
import {
  parsePolicy,
  policySetOf,
} from '../../../../controlplane/src/governance/policy/load-policies.js';
import { createPolicyAdmission } from '../../../../controlplane/src/governance/policy/task-admission.js';
import { createTaskGuards } from '../../../../controlplane/src/governance/policy/task-guards.js';
import { createApp } from '../../../../controlplane/src/ingress/http/app.js';
import { createAuditRepository } from '../../../../controlplane/src/platform/store/audit-repository.js';
import { openDatabase } from '../../../../controlplane/src/platform/store/database.js';
import { createTaskService } from '../../../../controlplane/src/tasks/task-service.js';
import { createFakeOperator, type FakeOperatorOptions } from '../../../support/fake-operator.js';
import { silentLogger } from '../../../support/silent-logger.js';
import { createTestTaskDeps } from '../../../support/test-task-deps.js';
import { createAuthFixture } from '../auth/auth-fixture.js';

export const acmePolicy = `tenant: acme
domains: { allow: [shop.example, "*.shop.example"], outside: needs_approval }
max_steps: 8
approvals:
  timeout_s: 5
  actions:
    - { action: type, text: "\\\\d{16}", decision: deny, reason: no card numbers }
`;
const defaultPolicy = 'tenant: default\ndomains: { allow: ["*"] }\nmax_steps: 10\n';

/** The full API (auth on) over a policed TaskService, a replay model and the fake operator. */
export async function createPolicyFixture(options: {
  outputs: string[];
  approver?: Approver;
  callUser?: 'allow' | 'needs_approval';
  /** Where tasks lease browsers, given the fake operator (default: that one browser). */
  provider?: (operator: BrowserOperator) => BrowserProvider;
  /** The fake browser's options (pages, a hook before each action). */
  operator?: FakeOperatorOptions;
}) {
  const auth = await createAuthFixture();
  const fake = createFakeOperator(options.operator);
  const { deps, repository, close } = createTestTaskDeps({
    model: createReplayModel(options.outputs),
    operator: fake.operator,
  });
  const database = openDatabase(':memory:');
  const audit = createAuditLog(createAuditRepository(database.db), deps.clock);
  const policies = policySetOf([
    parsePolicy(defaultPolicy, 'default.yaml'),
    parsePolicy(
      acmePolicy.replace(
        'approvals:\n',
        `approvals:\n  call_user: ${options.callUser ?? 'allow'}\n`,
      ),
      'acme.yaml',
    ),
  ]);
  const tasks = createTaskService(
    {
      ...deps,
      audit,
      admission: createPolicyAdmission({ policies, audit, defaults: { maxSteps: 10 } }),
      guards: createTaskGuards({ audit, logger: silentLogger, approver: options.approver }),
    },
    undefined,
    options.provider?.(fake.operator),
  );
  const app = createApp({
    tasks,
    repository,
    logger: silentLogger,
    defaultMaxSteps: 10,
    describe: () => ({
      model: { name: 'replay', replay: true },
      jail: { url: 'http://127.0.0.1:1' },
    }),
    auth: { verifier: auth.verifier },
    audit,
  });
  const bearer = async (tenant = 'acme') =>
    `Bearer ${await auth.token(['tasks:run', 'tasks:read'], tenant)}`;
  const startTask = async (body: Record<string, unknown>, tenant = 'acme') =>
    app.request('/v1/tasks', {
      method: 'POST',
      headers: { authorization: await bearer(tenant), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const waitFor = async (id: string) => {
    for (let i = 0; i < 300 && tasks.isActive(id); i++) await new Promise((r) => setTimeout(r, 10));
    return await repository.getTask(id);
  };
  return {
    app,
    tasks,
    audit,
    /** The audit's own SQLite database (a test may make it fail). */
    auditDatabase: database,
    repository,
    fake,
    bearer,
    startTask,
    waitFor,
    async close() {
      await tasks.close();
      close();
      database.close();
    },
  };
}
