// A policed controlplane for the gate tests (issue 20): the composition root as `npm start`
// builds it, a tenant policy in a temp CLAWDIE_POLICY_DIR, the fake operator with a page model
// (frames, fields, links, forms) as the browser, and approvals answered by the test.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { sleep } from '@clawdie/kit/timing';
import { createReplayModel } from '../../controlplane/src/agent/model/replay-model.js';
import { runClawdie } from './clawdie-cli.js';
import { createTestControlplane } from './controlplane.js';
import { createFakeOperator, type FakeOperatorOptions } from './fake-operator.js';

/** A shop and a payment host, both within the tenant's domains; payments need a supervisor. */
export const shopPolicy = (extra = '') => `tenant: default
domains: { allow: [shop.test, pay.test] }
max_steps: 6
credentials:
  modes: [none, supervisor_approved]
  secrets: [{ name: pw, domains: [shop.test] }]
approvals:
  timeout_s: 20
  actions:
    - { action: "*", hosts: [pay.test], decision: needs_approval, reason: payments need a supervisor }
${extra}`;

/** UI-TARS 1.5 replies: `click(x, y)` in the model's pixels (≈ CSS pixels on a 1280×800 page). */
export const click = (x: number, y: number) =>
  `click(start_box='<|box_start|>(${x},${y})<|box_end|>')`;
export const reply = (...actions: string[]) => `Thought: go\nAction: ${actions.join('\n\n')}`;
export const finish = "Thought: done\nAction: finished(content='done')";

/** A box around a model point, generous enough for the coordinate mapping. */
export const around = (x: number, y: number) => ({ x: x - 60, y: y - 60, width: 120, height: 120 });

export async function startGated(
  t: TestContext,
  replies: string[],
  fakeOptions: FakeOperatorOptions,
  policy = shopPolicy(),
) {
  const policyDir = mkdtempSync(join(tmpdir(), 'clawdie-policy-'));
  t.after(() => rmSync(policyDir, { recursive: true, force: true }));
  writeFileSync(join(policyDir, 'default.yaml'), policy);
  const fake = createFakeOperator(fakeOptions);
  const controlplane = await createTestControlplane({
    model: createReplayModel(replies),
    browsers: fake.operator,
    env: { CLAWDIE_POLICY_DIR: policyDir },
  });
  t.after(controlplane.close);
  return { controlplane, fake };
}

type Controlplane = Awaited<ReturnType<typeof startGated>>['controlplane'];

/** Answers every pending approval with `answer` as it appears, until `done` settles. */
export function answerAll(
  controlplane: Controlplane,
  done: Promise<unknown>,
  answer: 'approve' | 'deny',
) {
  let settled = false;
  void done.finally(() => {
    settled = true;
  });
  return (async () => {
    while (!settled) {
      for (const record of await controlplane.approvals.list({ status: 'pending', limit: 5 }))
        await controlplane.approvals.answer(record.id, answer, 'test supervisor');
      await sleep(20);
    }
  })();
}

/** `clawdie secret set <name> --tenant default` in its own process, the value on stdin. */
export async function secretSet(dataDir: string, name: string, value: string): Promise<void> {
  mkdirSync(dataDir, { recursive: true });
  const run = await runClawdie(
    ['secret', 'set', name, '--tenant', 'default'],
    { CLAWDIE_DATA_DIR: dataDir },
    `${value}\n`,
  );
  if (run.code !== 0) throw new Error(`clawdie secret set exited ${run.code}: ${run.stderr}`);
}
