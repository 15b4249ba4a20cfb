// main.ts as a real process: one JSON log line with the URL, clean SIGTERM, no orphaned Chromium
// after SIGKILL, and a clear configuration error.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, readlinkSync, realpathSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, describe, it } from 'node:test';
import { HEADLESS_SHELL } from '../../jail-service/src/browser/chromium-binary.js';
import { SERVICE_NODE_FLAGS } from '../../jail-service/src/node-flags.js';
import { jailChromiumEnv, requires } from '../support/capabilities.js';
import {
  chromiumDescendants,
  processesOfRun,
  userDataDirOf,
  waitForExit,
  waitForMarksGone,
} from '../support/chromium-processes.js';
import { JAIL_SERVICE_ARGV } from '../support/current-build.js';
import { repositoryRoot } from '../support/repository-root.js';
import { TOKEN } from './jail-harness.js';

const root = repositoryRoot;
const children = new Set<ChildProcess>();

interface Started {
  child: ChildProcess;
  url: string;
  stderr: string[];
}

/** The service as a local one runs (default: its build when current), or as hostd runs a clone's. */
const LOCAL = JAIL_SERVICE_ARGV;
const BUNDLE = 'jail-service/dist/bundle/main.mjs';

function spawnMain(
  env: Record<string, string>,
  stdin: 'ignore' | 'pipe' = 'ignore',
  argv: readonly string[] = LOCAL,
): { child: ChildProcess; stderr: string[] } {
  const child = spawn(process.execPath, argv, {
    cwd: root,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: [stdin, 'pipe', 'pipe'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  const stderr: string[] = [];
  if (child.stderr)
    createInterface({ input: child.stderr }).on('line', (line) => stderr.push(line));
  return { child, stderr };
}

async function startMain(
  env: Record<string, string> = {},
  stdin?: 'pipe',
  argv?: readonly string[],
): Promise<Started & { listening: Record<string, unknown> }> {
  const { child, stderr } = spawnMain(
    {
      CLAWDIE_JAIL_TOKEN: TOKEN,
      CLAWDIE_JAIL_PORT: '0',
      ...jailChromiumEnv,
      ...env,
    },
    stdin,
    argv,
  );
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    for (const line of stderr) {
      const entry = JSON.parse(line) as { msg?: string; url?: string };
      if (entry.msg === 'jail-service listening' && entry.url)
        return { child, url: entry.url, stderr, listening: entry };
    }
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`jail-service did not start:\n${stderr.join('\n')}`);
}

describe('jail-service main process', requires('chromium'), () => {
  after(() => {
    for (const child of children) child.kill('SIGKILL');
  });

  it('logs one JSON line with the URL, serves, and exits cleanly on SIGTERM', async () => {
    const { child, url, stderr, listening } = await startMain();
    assert.ok(stderr.every((line) => JSON.parse(line).service === 'jail-service'));
    assert.ok(!stderr.join('\n').includes(TOKEN), 'the token is never logged');
    const response = await fetch(`${url}/health`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    assert.equal(response.status, 200);
    const processes = chromiumDescendants(child.pid ?? -1);
    const chromium = processes.map((info) => info.pid);
    assert.ok(chromium.length >= 1);
    // Without CLAWDIE_CHROMIUM_PATH a headless service starts Debian's headless shell if present.
    const binary =
      process.env.CLAWDIE_CHROMIUM_PATH ||
      (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');
    assert.equal(listening.chromium, binary);
    const started = chromium.map((pid) => readlinkSync(`/proc/${pid}/exe`));
    assert.ok(started.includes(realpathSync(binary)), `${binary} runs: ${started.join(', ')}`);
    const profile = userDataDirOf(processes);
    assert.ok(profile && existsSync(profile));
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    assert.equal(code, 0);
    assert.deepEqual(await waitForExit(chromium, 5000), []);
    assert.equal(existsSync(profile), false, 'the temporary profile is removed');
  });

  it('leaves no Chromium process behind (zygotes, renderers, crashpad) when it is killed with SIGKILL, and the next service removes its directories', async () => {
    // Its own temporary directory, so the test sees exactly what each service leaves.
    const temp = mkdtempSync(join(tmpdir(), 'clawdie-main-kill-'));
    const owned = (pid: number | undefined) =>
      readdirSync(temp).filter((name) => name.includes(`-${pid}-`));
    const { child } = await startMain({ TMPDIR: temp });
    const profile = userDataDirOf(chromiumDescendants(child.pid ?? -1));
    assert.ok(profile?.startsWith(temp), `the profile ${profile} is under ${temp}`);
    if (!profile) return;
    // Chromium's profile, and the download and upload roots that hold the user's files.
    const kinds = (names: string[]) => names.map((name) => name.split('-')[2]).sort();
    assert.deepEqual(kinds(owned(child.pid)), ['downloads', 'profile', 'uploads']);
    // Chromium's group and its crashpad handlers (re-parented to init, named by the profile).
    const run = processesOfRun(child.pid ?? -1, profile);
    assert.ok(run.filter((found) => /chrom/i.test(found.command)).length >= 3, JSON.stringify(run));
    child.kill('SIGKILL');
    await once(child, 'exit');
    // Chromium runs over a pipe from the service: it exits when the pipe closes, and its own
    // children (zygotes, renderers, GPU, utilities, crashpad) go with it.
    assert.deepEqual(await waitForMarksGone(run, 10_000), []);
    // Nobody is left to delete them after SIGKILL: the next service to start does.
    assert.equal(owned(child.pid).length, 3);
    const next = await startMain({ TMPDIR: temp });
    assert.deepEqual(owned(child.pid), [], "the killed service's directories are removed");
    assert.equal(owned(next.child.pid).length, 3, 'the new service keeps its own');
    next.child.kill('SIGTERM');
    assert.equal((await once(next.child, 'exit'))[0], 0);
    const left = readdirSync(temp).filter((name) => name.startsWith('clawdie-jail-'));
    assert.deepEqual(left, [], 'a clean exit removes its own');
    await rm(temp, { recursive: true, force: true });
  });

  it('with CLAWDIE_JAIL_STOP_WITH_PARENT, closes Chromium and exits when its stdin reaches EOF', async () => {
    const { child } = await startMain({ CLAWDIE_JAIL_STOP_WITH_PARENT: 'true' }, 'pipe');
    const profile = userDataDirOf(chromiumDescendants(child.pid ?? -1));
    assert.ok(profile && existsSync(profile));
    const run = processesOfRun(child.pid ?? -1, profile);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(child.exitCode, null, 'it runs while the parent holds the pipe');
    // What the kernel does to the pipe when the parent dies, however it dies.
    child.stdin?.end();
    const exited = once(child, 'exit') as Promise<[number | null]>;
    const late = new Promise<['still running']>((resolve) =>
      setTimeout(() => resolve(['still running']), 15_000).unref(),
    );
    const [code] = await Promise.race([exited, late]);
    assert.equal(code, 0);
    assert.deepEqual(await waitForMarksGone(run, 10_000), []);
    assert.equal(existsSync(profile), false, 'a clean close: the temporary profile is removed');
  });

  it('the bundle, run as hostd runs it in a clone, compiles from its code cache and serves; other node flags refuse the cache', {
    skip: existsSync(join(root, BUNDLE)) ? false : 'no jail-service bundle (npm run build)',
  }, async () => {
    for (const [flags, codeCache] of [
      [SERVICE_NODE_FLAGS, 'used'],
      [[], 'refused'],
    ] as const) {
      // sharp at start: the bundle loads the native module from its own path.
      const env = { CLAWDIE_IMAGE_ENCODER: 'sharp' };
      const { child, url, listening } = await startMain(env, undefined, [...flags, BUNDLE]);
      assert.equal(listening.codeCache, codeCache, JSON.stringify(flags));
      const health = await fetch(`${url}/health`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      assert.equal(health.status, 200);
      const { images } = (await health.json()) as { images?: unknown };
      assert.match(String(images), /^sharp /);
      child.kill('SIGTERM');
      assert.deepEqual(await once(child, 'exit'), [0, null]);
    }
  });

  it('exits with code 2 and names the variables when no token is configured', async () => {
    const { child, stderr } = spawnMain({});
    const [code] = await once(child, 'exit');
    assert.equal(code, 2);
    const text = stderr.join('\n');
    assert.match(text, /CLAWDIE_JAIL_TOKEN/);
    assert.match(text, /CLAWDIE_JAIL_TOKEN_FILE/);
  });
});

describe(
  'jail-service main process with a fixed profile (a clone’s: Chromium starts first)',
  requires('chromium'),
  () => {
    const profile = `/tmp/clawdie-early-${process.pid}`;
    after(async () => {
      for (const child of children) child.kill('SIGKILL');
      await rm(profile, { recursive: true, force: true });
    });

    it('serves from the Chromium it started early (or the no-sandbox fallback of `auto`), and leaves none behind', async () => {
      const { child, url, stderr } = await startMain({
        CLAWDIE_JAIL_USER_DATA_DIR: profile,
        CLAWDIE_JAIL_CHROMIUM_SANDBOX: 'auto',
      });
      const response = await fetch(`${url}/health`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      assert.equal(response.status, 200);
      const launched = stderr
        .map((line) => JSON.parse(line) as { msg?: string; pid?: number })
        .filter((entry) => entry.msg === 'launched chromium');
      assert.equal(launched.length, 1);
      const processes = chromiumDescendants(child.pid ?? -1);
      assert.ok(processes.some((info) => info.pid === launched[0]?.pid));
      assert.equal(userDataDirOf(processes), profile);
      child.kill('SIGTERM');
      const [code] = await once(child, 'exit');
      assert.equal(code, 0);
      assert.deepEqual(
        await waitForExit(
          processes.map((info) => info.pid),
          5000,
        ),
        [],
      );
    });
  },
);
