// The start-up banner names the model's profile and what that profile cannot do (issue 22, 1).
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import {
  demoShownFile,
  printServerBanner,
  runServerDemo,
} from '../../../../controlplane/src/ingress/cli/server-banner.js';
import { createTestControlplane } from '../../../support/controlplane.js';
import { createPerTaskScriptModel } from '../../../support/per-task-script-model.js';

async function bannerOf(env: Record<string, string>): Promise<string[]> {
  const controlplane = await createTestControlplane({
    model: createPerTaskScriptModel([]),
    env: { CLAWDIE_MODEL_URL: 'http://127.0.0.1:9/v1', ...env },
  });
  const lines: string[] = [];
  const original = console.error;
  console.error = (line: string) => void lines.push(String(line));
  try {
    printServerBanner(controlplane, 'http://127.0.0.1:8700');
  } finally {
    console.error = original;
    await controlplane.close();
  }
  return lines;
}

describe('the start-up demo', () => {
  it('runs on a fresh data dir and marks it shown', async () => {
    const controlplane = await createTestControlplane({});
    const lines: string[] = [];
    const original = console.error;
    console.error = (line: string) => void lines.push(String(line));
    let marked = false;
    try {
      await runServerDemo(controlplane, new AbortController().signal);
      marked = existsSync(demoShownFile(controlplane.config.dataDir));
    } finally {
      console.error = original;
      await controlplane.close();
    }
    assert.match(lines.join('\n'), /REPLAY DEMO/);
    assert.match(lines.at(-1) ?? '', /^demo (succeeded|did not succeed)/);
    assert.ok(marked, 'marked shown');
  });

  it('runs on the first start of a data dir only', async () => {
    const controlplane = await createTestControlplane({});
    const lines: string[] = [];
    const original = console.error;
    console.error = (line: string) => void lines.push(String(line));
    try {
      writeFileSync(demoShownFile(controlplane.config.dataDir), 'earlier\n');
      await runServerDemo(controlplane, new AbortController().signal);
    } finally {
      console.error = original;
      await controlplane.close();
    }
    assert.deepEqual(lines, [
      'demo: shown on an earlier start of this data dir; `npx clawdie demo` runs it again',
    ]);
  });
});

describe('the start-up banner', () => {
  it('never points at a token "printed below" that is not printed (CLAWDIE_ADMIN_TOKEN set)', async () => {
    const lines = await bannerOf({ CLAWDIE_ADMIN_TOKEN: 'a-configured-admin-token-0123' });
    const auth = lines.find((line) => line.startsWith('API auth: ')) ?? '';
    assert.match(auth, /the admin token in CLAWDIE_ADMIN_TOKEN/);
    assert.doesNotMatch(auth, /printed/);
    assert.match(auth, /CLI reads CLAWDIE_ADMIN_TOKEN, pi and MCP-over-HTTP clients CLAWDIE_TOKEN/);
    assert.ok(
      !lines.join('\n').includes('a-configured-admin-token-0123'),
      'the token is never printed',
    );
  });

  it('names the profile and lists what it cannot do', async () => {
    const lines = await bannerOf({ CLAWDIE_MODEL_PROFILE: 'gemini-computer-use' });
    const model = lines.find((line) => line.startsWith('model: '));
    assert.match(model ?? '', /, profile gemini-computer-use$/);
    assert.ok(
      lines.some((line) => /^ {2}cannot: go_forward is refused/.test(line)),
      lines.join('\n'),
    );
  });

  it('says ui-tars-1.5 by default', async () => {
    const lines = await bannerOf({});
    assert.ok(
      lines.some((line) => line.endsWith(', profile ui-tars-1.5')),
      lines.join('\n'),
    );
  });

  it('names the store: SQLite and its file by default', async () => {
    const lines = await bannerOf({});
    const store = lines.find((line) => line.startsWith('store: '));
    assert.match(store ?? '', /^store: SQLite \/\S+\/clawdie\.db$/, lines.join('\n'));
  });
});
