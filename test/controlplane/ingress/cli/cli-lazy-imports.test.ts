// `clawdie run` starts at once (issue 24, point 6) because it loads only what a task needs: the
// HTTP app, MCP, the dashboard, the Telegram bot, token signing, JSON Schema validation, the demo
// shop, the PostgreSQL store and (with CLAWDIE_IMAGE_ENCODER=js) sharp are imported by the paths that use them. A real
// `clawdie run` process records every module it loads while it runs a task to its end on a real
// jail-service (Chromium) against a fake model; one eager import of any of them fails this
// test. The bundled command (bin/clawdie.mjs → controlplane/dist/bundle/) runs the same task.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  type LocalJailService,
  startLocalJailService,
} from '../../../../controlplane/src/browser/provider/local-jail-service.js';
import { requires } from '../../../support/capabilities.js';
import { runClawdie, runNode } from '../../../support/clawdie-cli.js';
import { silentLogger } from '../../../support/silent-logger.js';
import { testLauncher } from '../../../support/test-launcher.js';
import { startScriptedModel } from '../../../support/uitars-test-model.js';
import type { ChatServer } from '../../../support/uitars-test-model-server.js';

/** What `clawdie run` must not load, each as a pattern over the loaded module URLs. */
const NOT_ON_THE_RUN_PATH: Readonly<Record<string, RegExp>> = {
  'the MCP SDK': /\/node_modules\/@modelcontextprotocol\//,
  'grammy (Telegram)': /\/node_modules\/grammy\//,
  'jose (API tokens, grants)': /\/node_modules\/jose\//,
  'ajv (result_schema)': /\/node_modules\/ajv\//,
  'puppeteer (the jail-service only)': /\/node_modules\/puppeteer/,
  'the hono app': /\/node_modules\/hono\/dist\/(hono|hono-base)\.js$/,
  'the node HTTP server adapter': /\/node_modules\/@hono\/node-server\//,
  'sharp (CLAWDIE_IMAGE_ENCODER=js)': /\/node_modules\/sharp\//,
  'drizzle-kit': /\/node_modules\/drizzle-kit\//,
  // SQLite's process: the PostgreSQL store and queue are imported only with CLAWDIE_DATABASE_URL.
  'the PostgreSQL store': /\/controlplane\/src\/platform\/store\/pg\//,
  // drizzle-orm's relations.js itself loads pg-core's tables and columns; not its entry or driver.
  "drizzle's PostgreSQL side": /\/node_modules\/drizzle-orm\/(pg-core\/index|node-postgres\/)/,
  'pg and pg-boss': /\/node_modules\/(pg|pg-boss|pg-pool)\//,
  // config.ts parses CLAWDIE_TRUSTED_PROXIES with ingress/http/trusted-proxies.ts (no routes).
  'the REST routes': /\/controlplane\/src\/ingress\/http\/(?!trusted-proxies\.ts$)/,
  'the MCP server': /\/controlplane\/src\/ingress\/mcp\//,
  'the dashboard': /\/controlplane\/src\/ingress\/dashboard\//,
  'the app factory': /\/controlplane\/src\/composition\/build-app\.ts$/,
  'server auth': /\/controlplane\/src\/composition\/server-auth\.ts$/,
  'the server entry': /\/controlplane\/src\/server\.ts$/,
  'the demo shop': /\/controlplane\/src\/platform\/demo\//,
  'the other commands': /\/controlplane\/src\/ingress\/cli\/(mcp|admin|backup|session|audit)-/,
};

describe('clawdie run: lazy imports', requires('chromium'), () => {
  let jail: LocalJailService;
  let model: ChatServer;
  const dir = mkdtempSync(join(tmpdir(), 'clawdie-lazy-'));

  before(async () => {
    jail = await startLocalJailService({
      egressProxyUrl: null,
      launcher: testLauncher,
      env: process.env,
      logger: silentLogger,
    });
    model = await startScriptedModel(
      Array.from({ length: 2 }, () => "Thought: done.\nAction: finished(content='ok')"),
    );
  });
  after(async () => {
    await jail?.stop();
    await model?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const env = () => ({
    CLAWDIE_DATA_DIR: join(dir, 'data'),
    CLAWDIE_MODEL_URL: model.baseUrl,
    CLAWDIE_MODEL_NAME: 'ui-tars-1.5-scripted',
    CLAWDIE_JAIL_URL: jail.url,
    CLAWDIE_JAIL_TOKEN: jail.token,
    CLAWDIE_HOSTD: 'off',
    CLAWDIE_IMAGE_ENCODER: 'js',
  });

  it('runs a task to its end without loading the server, MCP, dashboard, bot or token code', async () => {
    const loadedFile = join(dir, 'loaded.txt');
    const run = await runClawdie(
      ['run', 'say ok', '--json'],
      { ...env(), CLAWDIE_TEST_LOADED_MODULES: loadedFile },
      '',
      ['./test/support/module-load-recorder.mjs'],
    );
    assert.equal(run.code, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout).status, 'finished');
    assert.equal(model.requests[0]?.imageCount, 1, 'the model saw the first screenshot');
    const loaded = readFileSync(loadedFile, 'utf8').trim().split('\n');
    // The recorder works: what a run needs is there.
    for (const needed of [
      /\/node_modules\/better-sqlite3\//,
      /\/node_modules\/zod\//,
      /\/controlplane\/src\/composition\/create-controlplane\.ts$/,
    ])
      assert.ok(
        loaded.some((url) => needed.test(url)),
        `${needed} not recorded among ${loaded.length}`,
      );
    const eager = Object.entries(NOT_ON_THE_RUN_PATH).flatMap(([what, pattern]) => {
      const hit = loaded.find((url) => pattern.test(url));
      return hit ? [`${what}: ${hit}`] : [];
    });
    assert.deepEqual(eager, []);
  });

  it('the bundled command (bin/clawdie.mjs, as installed) runs the same task', async () => {
    // The bundle rewrites each file's import.meta.url: migrations, policies and the jail-service
    // entry must still be found from controlplane/dist/bundle/.
    const run = await runNode(['controlplane/bin/clawdie.mjs', 'run', 'say ok', '--json'], env());
    assert.equal(run.code, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout).status, 'finished');
    assert.equal(model.requests.at(-1)?.imageCount, 1);
  });
});
