// `npm start` names the image encoder in its banner: sharp with its libvips version, or — when
// sharp cannot be loaded (a resolve hook makes `import('sharp')` fail, as on a host without a
// sharp build) — the pure-JS encoder and why, and the server still starts. Real processes; the
// configured jail-service is not contacted at start, so no browser is needed. What `npm start`
// runs: the build when current (test/support/current-build.ts), else the sources under tsx.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import { loadConfig } from '../../../controlplane/src/config.js';
import { SERVER_ARGV } from '../../support/current-build.js';
import { repositoryRoot } from '../../support/repository-root.js';

const root = repositoryRoot;

/** Starts the controlplane, returns its output up to the dashboard line, and stops it. */
async function banner(extraArgs: string[], extraEnv: Record<string, string> = {}) {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('CLAWDIE_')),
  );
  const child = spawn(process.execPath, [...extraArgs, ...SERVER_ARGV], {
    cwd: root,
    env: {
      ...env,
      CLAWDIE_DATA_DIR: mkdtempSync(join(tmpdir(), 'clawdie-banner-')),
      CLAWDIE_PORT: '0',
      CLAWDIE_HOSTD: 'off',
      CLAWDIE_JAIL_URL: 'http://127.0.0.1:9',
      CLAWDIE_JAIL_TOKEN: 'x'.repeat(16),
      CLAWDIE_ADMIN_TOKEN: 'y'.repeat(24),
      CLAWDIE_REPLAY_FILE: join(root, 'controlplane', 'demo-site', 'demo-replay.json'),
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk;
  });
  const exited = once(child, 'exit');
  try {
    for (let i = 0; i < 600 && !/dashboard: /.test(output) && child.exitCode === null; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return output;
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

describe('the controlplane banner names the image encoder', () => {
  it('CLAWDIE_IMAGE_ENCODER is parsed in config.ts: auto by default, auto|sharp|js only', () => {
    assert.equal(loadConfig({}).imageEncoder, 'auto');
    assert.equal(loadConfig({ CLAWDIE_IMAGE_ENCODER: 'js' }).imageEncoder, 'js');
    assert.throws(() => loadConfig({ CLAWDIE_IMAGE_ENCODER: 'vips' }), /CLAWDIE_IMAGE_ENCODER/);
  });

  it('auto with sharp loadable: sharp and its libvips version', async () => {
    const output = await banner([]);
    const expected = `images: sharp ${sharp.versions.sharp} (libvips ${sharp.versions.vips})`;
    assert.ok(output.split('\n').includes(expected), output);
    // The model's images: UI-TARS-1.5's JPEG (the replay's profile).
    assert.match(
      output,
      /^ {2}images: JPEG q80 \(the profile's; WEBP where the server says it is vLLM, SGLang or Ollama ≥ 0.32.14; CLAWDIE_MODEL_IMAGE_FORMAT changes it\)$/m,
    );
  });

  it('auto where sharp cannot be loaded: the pure-JS encoder and the reason; the server runs', async () => {
    const output = await banner(['--import', './test/support/no-sharp/register.mjs'], {
      CLAWDIE_MODEL_IMAGE_FORMAT: 'webp',
      CLAWDIE_MODEL_JPEG_QUALITY: '75',
    });
    // WebP asked, but the pure-JS codec writes JPEG only: the banner says what goes instead.
    assert.match(output, /^ {2}images: JPEG q75 \(webp asked; the js codec cannot write it\)$/m);
    assert.match(
      output,
      /^images: pure-JS encoder \(jpeg-js, pngjs\) \(sharp not loadable: Cannot find package 'sharp' \(simulated: no sharp on this host\)\)$/m,
    );
    assert.match(output, /listening on http:\/\/127\.0\.0\.1:\d+/);
  });

  it('CLAWDIE_IMAGE_ENCODER=sharp where sharp cannot be loaded: refuses to start, saying why', async () => {
    const output = await banner(['--import', './test/support/no-sharp/register.mjs'], {
      CLAWDIE_IMAGE_ENCODER: 'sharp',
    });
    assert.match(output, /CLAWDIE_IMAGE_ENCODER=sharp but sharp cannot be loaded/);
    assert.doesNotMatch(output, /listening on/);
  });
});
