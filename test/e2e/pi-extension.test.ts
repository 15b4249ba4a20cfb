// The browser_run_task extension loaded by the real pi 0.73.1 loader (jiti, from its .ts source)
// into a real agent session driven by pi's faux model, against a real controlplane on loopback.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  type FauxProviderRegistration,
  fauxAssistantMessage,
  fauxToolCall,
  registerFauxProvider,
} from '@mariozechner/pi-ai';
import {
  type AgentSession,
  type AgentSessionEvent,
  AuthStorage,
  createAgentSession,
  DefaultResourceLoader,
  ModelRegistry,
  SessionManager,
  SettingsManager,
} from '@mariozechner/pi-coding-agent';
import { createReplayModel } from '../../controlplane/src/agent/model/replay-model.js';
import {
  createPacedModel,
  startTestControlplane,
  type TestControlplane,
} from '../controlplane/pi/controlplane-fixture.js';
import { requires } from '../support/capabilities.js';

const extensionPath = resolve(
  fileURLToPath(import.meta.url),
  '../../../controlplane/pi-extension/browser-run-task.ts',
);

interface Harness {
  session: AgentSession;
  events: AgentSessionEvent[];
  toolNames: string[];
}

/** A pi session whose only extension is browser_run_task, pointed at `url` via --clawdie-url. */
async function startSession(faux: FauxProviderRegistration, url: string): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'clawdie-pi-e2e-'));
  const agentDir = join(dir, 'agent');
  const model = faux.getModel();
  const authStorage = AuthStorage.inMemory();
  authStorage.setRuntimeApiKey(model.provider, 'faux-key');
  const settingsManager = SettingsManager.inMemory();
  const resourceLoader = new DefaultResourceLoader({
    cwd: dir,
    agentDir,
    settingsManager,
    additionalExtensionPaths: [extensionPath],
  });
  await resourceLoader.reload();
  const loaded = resourceLoader.getExtensions();
  assert.deepEqual(loaded.errors, []);
  // What `pi --clawdie-url <url>` does: set the value of the flag the extension registered.
  loaded.runtime.flagValues.set('clawdie-url', url);
  const { session } = await createAgentSession({
    cwd: dir,
    agentDir,
    model,
    authStorage,
    modelRegistry: ModelRegistry.inMemory(authStorage),
    settingsManager,
    sessionManager: SessionManager.inMemory(dir),
    resourceLoader,
    noTools: 'builtin',
  });
  await session.bindExtensions({});
  const events: AgentSessionEvent[] = [];
  session.subscribe((event) => events.push(event));
  const toolNames = loaded.extensions.flatMap((extension) => [...extension.tools.keys()]);
  return { session, events, toolNames };
}

function toolResults(session: AgentSession) {
  return session.messages.filter((message) => message.role === 'toolResult');
}

describe('browser_run_task in a real pi session', requires('chromium'), () => {
  let faux: FauxProviderRegistration;
  let finishing: TestControlplane;
  let endless: TestControlplane;
  let failing: TestControlplane;
  before(async () => {
    failing = await startTestControlplane({
      model: createReplayModel(['garbage', 'more garbage', 'still garbage']),
    });
    faux = registerFauxProvider({ models: [{ id: 'faux-1' }] });
    finishing = await startTestControlplane({
      model: createReplayModel([
        "Action: click(start_box='<|box_start|>(644,406)<|box_end|>')",
        'Action: finished(content=\'{"title": "Demo shop"}\')',
      ]),
    });
    endless = await startTestControlplane({
      model: createPacedModel(['Action: wait()'], 20),
      maxSteps: 500,
    });
  });
  after(async () => {
    faux.unregister();
    await Promise.all([finishing?.close(), endless?.close(), failing?.close()]);
  });

  it('is found through the pi manifest of the controlplane package (pi install ./controlplane)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'clawdie-pi-e2e-'));
    const loader = new DefaultResourceLoader({
      cwd: dir,
      agentDir: join(dir, 'agent'),
      settingsManager: SettingsManager.inMemory(),
      additionalExtensionPaths: [resolve(extensionPath, '../..')],
    });
    await loader.reload();
    const { errors, extensions } = loader.getExtensions();
    assert.deepEqual(errors, []);
    assert.deepEqual(
      extensions.map((extension) => [extension.resolvedPath, [...extension.tools.keys()]]),
      [[extensionPath, ['browser_run_task']]],
    );
  });

  it('lists the tool, streams progress and returns the compact JSON result', async () => {
    const { session, events, toolNames } = await startSession(faux, finishing.url);
    assert.deepEqual(toolNames, ['browser_run_task']);
    assert.ok(session.getActiveToolNames().includes('browser_run_task'));
    assert.match(session.systemPrompt, /browser_run_task: run a task in a real Chromium browser/);
    faux.setResponses([
      fauxAssistantMessage(
        fauxToolCall(
          'browser_run_task',
          { instruction: 'read the title', max_steps: '5' },
          { id: 'call-1' },
        ),
        { stopReason: 'toolUse' },
      ),
      fauxAssistantMessage('The title is Demo shop.'),
    ]);
    await session.prompt('what is the title?');

    const updates = events.filter((event) => event.type === 'tool_execution_update');
    assert.ok(updates.length >= 2, `${updates.length} updates`);
    for (const update of updates) {
      assert.equal(update.toolName, 'browser_run_task');
      assert.ok((update.partialResult as { details?: unknown }).details, 'update carries details');
    }
    const lines = updates.map(
      (update) => (update.partialResult as { content: Array<{ text: string }> }).content[0]?.text,
    );
    assert.ok(lines.includes('step 1/5: click (640, 400)'), lines.join('\n'));

    const [result] = toolResults(session);
    assert.ok(result && result.role === 'toolResult');
    assert.equal(result.isError, false);
    const part = result.content[0];
    const compact = JSON.parse(part?.type === 'text' ? part.text : '');
    assert.equal(compact.status, 'finished');
    assert.deepEqual(compact.result_data, { title: 'Demo shop' });
    assert.deepEqual(result.details, compact);
    assert.equal(await finishing.statusOf(compact.trace_id), 'finished');
    session.dispose();
  });

  it('reports a failed task as an error result that keeps its details', async () => {
    const { session } = await startSession(faux, failing.url);
    faux.setResponses([
      fauxAssistantMessage(
        fauxToolCall('browser_run_task', { instruction: 'do something' }, { id: 'call-3' }),
        { stopReason: 'toolUse' },
      ),
      fauxAssistantMessage('It failed.'),
    ]);
    await session.prompt('try it');
    const [result] = toolResults(session);
    assert.ok(result && result.role === 'toolResult');
    assert.equal(result.isError, true);
    const details = result.details as { status: string; error: { code: string } };
    assert.equal(details.status, 'error');
    assert.equal(details.error.code, 'PARSE_FAILED');
    session.dispose();
  });

  it('aborts the remote task when the session is aborted during the call', async () => {
    const { session } = await startSession(faux, endless.url);
    let traceId = '';
    let aborting: Promise<void> | undefined;
    session.subscribe((event) => {
      if (event.type !== 'tool_execution_update' || aborting) return;
      traceId = (event.partialResult as { details: { trace_id: string } }).details.trace_id;
      aborting = session.abort();
    });
    faux.setResponses([
      fauxAssistantMessage(
        fauxToolCall('browser_run_task', { instruction: 'wait forever' }, { id: 'call-2' }),
        { stopReason: 'toolUse' },
      ),
      fauxAssistantMessage('not reached'),
    ]);
    await session.prompt('start the endless task');
    await aborting;

    assert.notEqual(traceId, '');
    await endless.waitForStatus(traceId, 'aborted', 2000);
    const [result] = toolResults(session);
    assert.ok(result && result.role === 'toolResult');
    assert.equal(result.isError, true);
    const part = result.content[0];
    assert.match(
      part?.type === 'text' ? part.text : '',
      /browser_run_task cancelled: browser task/,
    );
    // pi 0.73.1 still starts the follow-up model call, with the aborted signal: the faux provider
    // uses up one scripted reply and the turn ends with an empty `aborted` assistant message.
    const last = session.messages.at(-1);
    assert.ok(last && last.role === 'assistant');
    assert.equal(last.stopReason, 'aborted');
    assert.deepEqual(last.content, []);
    session.dispose();
  });
});
