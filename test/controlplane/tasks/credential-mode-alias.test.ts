// `credential_mode: supervisor_approved` and its former name `operator_approved` (issue 21 (4)):
// the new name is accepted everywhere; the old one is still accepted in task input (REST, MCP,
// the schema pi's parameters come from) and in policy files, and read as the new name, which is
// all that responses, the audit and the policy in force show.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createReplayModel } from '../../../controlplane/src/agent/model/replay-model.js';
import { parsePolicy } from '../../../controlplane/src/governance/policy/load-policies.js';
import { browserRunTaskInputSchema } from '../../../controlplane/src/tasks/task-input.js';
import { createTestControlplane, type TestControlplane } from '../../support/controlplane.js';

const finish = "Action: finished(content='done')";
const policyWith = (modes: string) =>
  `tenant: default\ndomains: { allow: ["*"] }\nmax_steps: 5\ncredentials: { modes: [${modes}] }\n`;
const modeOf = (input: Record<string, unknown>) =>
  browserRunTaskInputSchema.parse({ instruction: 'x', ...input }).credential_mode;

describe('credential_mode supervisor_approved, formerly operator_approved', () => {
  it('task input takes both names and parses to the new one', () => {
    assert.equal(modeOf({ credential_mode: 'supervisor_approved' }), 'supervisor_approved');
    assert.equal(modeOf({ credential_mode: 'operator_approved' }), 'supervisor_approved');
    assert.equal(modeOf({}), 'none');
    const other = { instruction: 'x', credential_mode: 'admin_approved' };
    assert.equal(browserRunTaskInputSchema.safeParse(other).success, false);
  });

  it('a policy file takes both names and holds the new one', () => {
    for (const modes of ['none, supervisor_approved', 'none, operator_approved']) {
      const policy = parsePolicy(policyWith(modes), 'default.yaml');
      assert.deepEqual(policy.credentials.modes, ['none', 'supervisor_approved'], modes);
    }
    assert.throws(() => parsePolicy(policyWith('operator'), 'default.yaml'), /modes/);
  });

  describe('through the API, under a policy file that still says operator_approved', () => {
    let controlplane: TestControlplane;
    before(async () => {
      const policyDir = mkdtempSync(join(tmpdir(), 'clawdie-policy-'));
      writeFileSync(join(policyDir, 'default.yaml'), policyWith('none, operator_approved'));
      controlplane = await createTestControlplane({
        model: createReplayModel([finish, finish, finish]),
        env: { CLAWDIE_POLICY_DIR: policyDir },
      });
    });
    after(() => controlplane.close());

    /** The `credential_mode` the audit's `task-started` row of task `id` records. */
    async function startedMode(id: string) {
      for (let i = 0; i < 300 && controlplane.tasks.isActive(id); i++)
        await new Promise((resolve) => setTimeout(resolve, 10));
      const row = (await controlplane.audit.list({ taskId: id, limit: 20 })).find(
        (entry) => entry.type === 'task-started',
      );
      return row?.data.credential_mode;
    }

    for (const mode of ['supervisor_approved', 'operator_approved']) {
      it(`REST: a task with ${mode} runs and is audited as supervisor_approved`, async () => {
        const response = await controlplane.app.request('/v1/tasks', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ instruction: 'x', credential_mode: mode }),
        });
        assert.equal(response.status, 202, await response.clone().text());
        const { trace_id: id } = (await response.json()) as { trace_id: string };
        assert.equal(await startedMode(id), 'supervisor_approved');
      });
    }

    it('MCP: browser_run_task with operator_approved runs as supervisor_approved', async (t) => {
      const client = new Client({ name: 't', version: '1' });
      const transport = new StreamableHTTPClientTransport(new URL('http://controlplane.test/mcp'), {
        fetch: async (url, init) => controlplane.app.request(String(url), init as RequestInit),
      });
      await client.connect(transport);
      t.after(() => client.close());
      const result = await client.callTool({
        name: 'browser_run_task',
        arguments: { instruction: 'x', credential_mode: 'operator_approved' },
      });
      assert.equal(result.isError, undefined, JSON.stringify(result.content));
      const { trace_id: id } = result.structuredContent as { trace_id: string };
      assert.equal(await startedMode(id), 'supervisor_approved');
    });
  });
});
