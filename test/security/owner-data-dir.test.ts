// Issue 13 (5): a second process on a data directory must not mark a live process's running
// tasks INTERRUPTED. Real SQLite files, a real HTTP server with a live heartbeat in this process,
// and the real `clawdie` CLI, stdio MCP and `npm start` entry points spawned as child processes.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import type { VisionModel } from '../../controlplane/src/agent/model/chat-types.js';
import { openDatabase } from '../../controlplane/src/platform/store/database.js';
import { createTaskRepository } from '../../controlplane/src/platform/store/task-repository.js';
import { createTestControlplane, type TestControlplane } from '../support/controlplane.js';
import { CLAWDIE_ARGV, SERVER_ARGV, supportScriptArgv } from '../support/current-build.js';
import { repositoryRoot } from '../support/repository-root.js';
import { submit } from '../support/submit-task.js';

const root = repositoryRoot;
const tsx = ['--conditions=source', '--import', 'tsx'];
/** Where the spawned entry points come from (this checkout). */
const entryRoot = root;

/** The environment of a spawned entry point: no inherited CLAWDIE_*, nothing that opens Chromium. */
function childEnv(dataDir: string): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('CLAWDIE_')),
  );
  return {
    ...env,
    CLAWDIE_DATA_DIR: dataDir,
    CLAWDIE_PORT: '0',
    CLAWDIE_HOSTD: 'off',
    // A loopback port nothing listens on, and a replay file that does not exist: a process that
    // got past the ownership check fails right after opening the store, without a browser.
    CLAWDIE_JAIL_URL: 'http://127.0.0.1:9/',
    CLAWDIE_JAIL_TOKEN: 'owner-test-jail-token-0123456789',
    CLAWDIE_REPLAY_FILE: join(dataDir, 'no-such-replay.json'),
  };
}

/** node's arguments for an entry point: what ships when the build is current (current-build.ts). */
function entryArgv(args: readonly string[]): string[] {
  const [entry, ...rest] = args;
  if (entry === 'controlplane/src/cli.ts') return [...CLAWDIE_ARGV, ...rest];
  if (entry === 'controlplane/src/main.ts') return [...SERVER_ARGV, ...rest];
  return [...tsx, ...args];
}

/** Runs an entry point to its exit (killed after 60 s); stdin is closed at once. */
async function runEntry(args: string[], dataDir: string) {
  const child = spawn(process.execPath, entryArgv(args), {
    cwd: entryRoot,
    env: childEnv(dataDir),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.end();
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  return { code, output };
}

/** A model that answers step 1, then holds step 2's reply until `release()`. */
function heldModel() {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const model: VisionModel = {
    name: 'held',
    isReplay: true,
    async complete(request) {
      const turn = request.messages.filter((message) => message.role === 'assistant').length;
      if (turn === 1) await held;
      const text =
        turn === 0
          ? "Action: click(start_box='<|box_start|>(644,406)<|box_end|>')"
          : "Action: finished(content='done')";
      return { text, requestBytes: 1, usage: null };
    },
  };
  return { model, release };
}

const until = async (check: () => boolean | Promise<boolean>) => {
  for (let i = 0; i < 500 && !(await check()); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(await check(), 'condition not reached');
};

describe('a second process beside a running server (real processes, real SQLite)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'clawdie-owner-server-'));
  const { model, release } = heldModel();
  let controlplane: TestControlplane;
  let url = '';
  let taskId = '';
  let done: Promise<unknown>;

  before(async () => {
    // The server: the same composition root as `npm start`, registered as `server`.
    controlplane = await createTestControlplane({
      role: 'server',
      model,
      env: { CLAWDIE_DATA_DIR: dataDir, CLAWDIE_MAX_STEPS: '5' },
    });
    url = await controlplane.serve();
    const started = await submit(controlplane.tasks, { instruction: 'stay running' });
    taskId = started.taskId;
    done = started.done;
    await until(async () => (await controlplane.repository.listSteps(taskId)).length === 2);
  });
  after(async () => {
    release();
    await done;
    await controlplane.close();
  });

  const taskOverRest = async () => {
    const body = (await (await fetch(`${url}/v1/tasks/${taskId}`)).json()) as any;
    return { ...body.task, error: body.result?.error };
  };

  for (const [name, args] of [
    ['clawdie run', ['controlplane/src/cli.ts', 'run', 'do something', '--json']],
    ['clawdie demo', ['controlplane/src/cli.ts', 'demo', '--json']],
    ['clawdie mcp (stdio)', ['controlplane/src/cli.ts', 'mcp']],
    ['npm start (a second server)', ['controlplane/src/main.ts']],
  ] as const) {
    it(`${name} refuses with exit code 2 naming the server's pid and URL, and leaves its running task untouched`, async () => {
      const { code, output } = await runEntry([...args], dataDir);
      const task = await taskOverRest();
      assert.equal(task.status, 'running', output);
      assert.equal(task.error, undefined);
      assert.equal(task.step_count, 2);
      assert.equal(code, 2, output);
      assert.match(output, /in use by a running Clawdie server/);
      assert.ok(output.includes(`pid ${process.pid}`), output);
      assert.ok(output.includes(`at ${url}`), output);
    });
  }

  it('the task then ends on its own, not INTERRUPTED', async () => {
    release();
    await done;
    const task = await taskOverRest();
    assert.equal(task.status, 'finished');
    assert.equal(task.step_count, 2);
  });
});

describe('a process that registers beside a live client, then after it died', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'clawdie-owner-dead-'));
  const databasePath = join(dataDir, 'clawdie.db');
  let child: ChildProcess;
  let childTask = '';

  before(async () => {
    openDatabase(databasePath).close();
    child = spawn(
      process.execPath,
      [...supportScriptArgv('test/security/support/owner-child.ts'), databasePath, 'mcp'],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    if (!child.stdout) throw new Error('no stdout pipe');
    const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
    childTask = JSON.parse(line).taskId;
  });
  after(() => {
    child.kill('SIGKILL');
  });

  const readTask = async () => {
    const database = openDatabase(databasePath);
    try {
      return await createTaskRepository(database.db).getTask(childTask);
    } finally {
      database.close();
    }
  };

  it('clawdie run beside a live client process leaves its running task alone', async () => {
    const { code, output } = await runEntry(
      ['controlplane/src/cli.ts', 'run', 'x', '--json'],
      dataDir,
    );
    // Past the ownership check (clients may share a directory), it fails on the missing replay.
    assert.equal(code, 2, output);
    assert.match(output, /no-such-replay\.json/);
    const task = await readTask();
    assert.equal(task?.status, 'running');
    assert.equal(task?.stepCount, 2);
  });

  it('once that process is killed, the next start marks its task INTERRUPTED with its 2 recorded steps', async () => {
    child.kill('SIGKILL');
    await once(child, 'exit');
    const { code, output } = await runEntry(
      ['controlplane/src/cli.ts', 'run', 'x', '--json'],
      dataDir,
    );
    assert.equal(code, 2, output);
    const task = await readTask();
    assert.equal(task?.status, 'error');
    assert.equal(task?.errorCode, 'INTERRUPTED');
    assert.equal(task?.stepCount, 2);
  });
});
