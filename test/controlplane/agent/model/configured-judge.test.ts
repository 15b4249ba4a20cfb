// The judge role (CLAWDIE_JUDGE_*): a dedicated endpoint, the task model, or none — contradictions
// and half settings refused at start, the key kept out of logs like the model's.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { isSecretKey } from '@clawdie/kit/logger';
import type { VisionModel } from '../../../../controlplane/src/agent/model/chat-types.js';
import {
  createConfiguredJudge,
  describeJudge,
} from '../../../../controlplane/src/agent/model/configured-judge.js';
import { loadConfig } from '../../../../controlplane/src/config.js';
import { startChatServer } from '../../../support/uitars-test-model-server.js';

const model = (reply: string): VisionModel & { calls: number } => {
  const fake = {
    name: 'task-model',
    isReplay: false,
    calls: 0,
    async complete() {
      fake.calls += 1;
      return { text: reply, requestBytes: 1, usage: null };
    },
  };
  return fake;
};
const request = { condition: 'a tick', frames: [], history: [], now: 0 };

describe('the judge role', () => {
  it('is none by default: visual conditions are refused, and the banner says how to set one', () => {
    const config = loadConfig({ CLAWDIE_MODEL_URL: 'http://127.0.0.1:9/v1' });
    assert.equal(config.judge, null);
    assert.equal(createConfiguredJudge(config, model('')), null);
    assert.match(describeJudge(config), /^none: visual conditions are refused .*CLAWDIE_JUDGE_URL/);
  });

  it('is a dedicated endpoint with CLAWDIE_JUDGE_URL + NAME, its key sent as a bearer and redacted', async () => {
    const server = await startChatServer({
      modelName: 'judge-7b',
      apiKey: 'judge-secret-key-1',
      delayMs: () => 0,
      respond: async () => ({
        kind: 'reply',
        content: 'FINAL_JSON: {"decision":"partial","reason":"loading"}',
      }),
    });
    try {
      const directory = mkdtempSync(join(tmpdir(), 'clawdie-judge-key-'));
      writeFileSync(join(directory, 'key'), 'judge-secret-key-1\n');
      const config = loadConfig({
        CLAWDIE_JUDGE_URL: server.baseUrl,
        CLAWDIE_JUDGE_NAME: 'judge-7b',
        CLAWDIE_JUDGE_API_KEY_FILE: join(directory, 'key'),
        CLAWDIE_JUDGE_TIMEOUT_MS: '5000',
      });
      rmSync(directory, { recursive: true });
      assert.deepEqual(config.judge, {
        kind: 'endpoint',
        url: server.baseUrl,
        name: 'judge-7b',
        apiKey: 'judge-secret-key-1',
        timeoutMs: 5000,
      });
      // Logged config objects hide it: `apiKey` is on the one redaction list.
      assert.ok(isSecretKey('apiKey'));
      const task = model('');
      const judge = createConfiguredJudge(config, task);
      assert.deepEqual(await judge?.judge(request), { decision: 'partial', reason: 'loading' });
      assert.equal(task.calls, 0, 'not the task model');
      assert.equal(server.requests[0]?.body?.model, 'judge-7b');
      assert.equal(describeJudge(config), `judge-7b at ${server.baseUrl}`);
    } finally {
      await server.close();
    }
  });

  it('is the task model with CLAWDIE_JUDGE_USE_MODEL=true', async () => {
    const config = loadConfig({
      CLAWDIE_MODEL_URL: 'http://127.0.0.1:9/v1',
      CLAWDIE_JUDGE_USE_MODEL: 'true',
    });
    assert.deepEqual(config.judge, { kind: 'model', timeoutMs: 30_000 });
    const task = model('FINAL_JSON: {"decision":"resolved","reason":"tick"}');
    assert.deepEqual(await createConfiguredJudge(config, task)?.judge(request), {
      decision: 'resolved',
      reason: 'tick',
    });
    assert.equal(task.calls, 1);
    assert.throws(() => createConfiguredJudge(config, null), /no task model to judge with/);
  });

  it('refuses the task model as the judge where its profile answers with tool calls', () => {
    const config = loadConfig({
      CLAWDIE_MODEL_URL: 'http://127.0.0.1:9/v1',
      CLAWDIE_MODEL_PROFILE: 'anthropic-computer-use',
      CLAWDIE_JUDGE_USE_MODEL: 'true',
    });
    assert.throws(() => createConfiguredJudge(config, model('unused')), {
      code: 'CONFIG_INVALID',
      message: /anthropic-computer-use model cannot judge/,
    });
  });

  it('reads the profile from CLAWDIE_MODEL_PROFILE, or from CLAWDIE_MODEL_VERSION, never both at odds', () => {
    assert.equal(loadConfig({}).model.profile, 'ui-tars-1.5');
    assert.equal(loadConfig({ CLAWDIE_MODEL_VERSION: '1.0' }).model.profile, 'ui-tars-1.0');
    assert.equal(
      loadConfig({ CLAWDIE_MODEL_PROFILE: 'gemini-computer-use' }).model.profile,
      'gemini-computer-use',
    );
    assert.throws(
      () => loadConfig({ CLAWDIE_MODEL_VERSION: '1.0', CLAWDIE_MODEL_PROFILE: 'qwen3-vl' }),
      { code: 'CONFIG_INVALID', message: /contradicts CLAWDIE_MODEL_PROFILE=qwen3-vl/ },
    );
    assert.throws(() => loadConfig({ CLAWDIE_MODEL_PROFILE: 'gpt-4o' }), {
      code: 'CONFIG_INVALID',
      message: /CLAWDIE_MODEL_PROFILE/,
    });
  });

  it('refuses contradictions and half settings at start', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [
        { CLAWDIE_JUDGE_URL: 'http://127.0.0.1:9/v1' },
        /CLAWDIE_JUDGE_URL needs CLAWDIE_JUDGE_NAME/,
      ],
      [
        {
          CLAWDIE_JUDGE_URL: 'http://127.0.0.1:9/v1',
          CLAWDIE_JUDGE_NAME: 'j',
          CLAWDIE_JUDGE_USE_MODEL: 'true',
          CLAWDIE_MODEL_URL: 'http://127.0.0.1:8/v1',
        },
        /not both/,
      ],
      [{ CLAWDIE_JUDGE_NAME: 'j' }, /need CLAWDIE_JUDGE_URL/],
      [{ CLAWDIE_JUDGE_USE_MODEL: 'true' }, /needs the task model at CLAWDIE_MODEL_URL/],
      [
        {
          CLAWDIE_JUDGE_USE_MODEL: 'true',
          CLAWDIE_MODEL_URL: 'http://127.0.0.1:8/v1',
          CLAWDIE_REPLAY_FILE: 'replay.json',
        },
        /a replay file cannot judge/,
      ],
      [{ CLAWDIE_JUDGE_TIMEOUT_MS: '10' }, /CLAWDIE_JUDGE_TIMEOUT_MS/],
    ];
    for (const [env, message] of cases)
      assert.throws(
        () => loadConfig(env),
        { code: 'CONFIG_INVALID', message },
        JSON.stringify(env),
      );
  });
});
