import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { demoTask } from '../../controlplane/src/platform/demo/demo-site-server.js';
import { requires } from '../support/capabilities.js';
import { CLAWDIE_ARGV } from '../support/current-build.js';

function runCli(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [...CLAWDIE_ARGV, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('e2e: the clawdie CLI as a real process', requires('chromium'), () => {
  it('runs the bundled replay demo to the right answer and prints progress and the compact result', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'clawdie-cli-'));
    const { code, stdout, stderr } = await runCli(['demo'], {
      CLAWDIE_DATA_DIR: dataDir,
      CLAWDIE_JAIL_VIEWPORT: '1280x800',
      CLAWDIE_JAIL_DEVICE_SCALE_FACTOR: '1',
    });
    assert.equal(code, 0, stderr);
    const result = JSON.parse(stdout);
    assert.equal(result.status, 'finished');
    assert.equal(result.summary, demoTask.expectedValue);
    assert.match(stderr, /REPLAY DEMO/);
    assert.match(stderr, /step 1\/15 · /);
    assert.ok(existsSync(join(dataDir, 'clawdie.db')));
    assert.ok(existsSync(result.final_screenshot_path));
  });

  it('rejects bad arguments with exit code 2 and a message naming the flag', async () => {
    const { code, stderr } = await runCli(['run', 'do it', '--start-url', 'ftp://x'], {});
    assert.equal(code, 2);
    assert.match(stderr, /--start-url: must be an http/);
  });

  it('explains how to connect a model when none is configured', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'clawdie-cli-'));
    const { code, stderr } = await runCli(['run', 'do it', '--json'], {
      CLAWDIE_DATA_DIR: dataDir,
      CLAWDIE_MODEL_URL: '',
      CLAWDIE_REPLAY_FILE: '',
    });
    assert.equal(code, 2);
    assert.match(stderr, /MODEL_NOT_CONFIGURED: no model configured: set CLAWDIE_MODEL_URL/);
  });
});
