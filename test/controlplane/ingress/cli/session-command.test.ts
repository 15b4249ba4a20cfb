import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createReplayModel } from '../../../../controlplane/src/agent/model/replay-model.js';
import { loadConfig } from '../../../../controlplane/src/config.js';
import { parseCommand } from '../../../../controlplane/src/ingress/cli/args.js';
import { runSessionCommand } from '../../../../controlplane/src/ingress/cli/session-command.js';
import { runningServerUrl } from '../../../../controlplane/src/ingress/cli/session-server.js';
import { createApp } from '../../../../controlplane/src/ingress/http/app.js';
import { claimDataDirAt } from '../../../../controlplane/src/platform/ownership/data-dir-owner.js';
import { openDatabase } from '../../../../controlplane/src/platform/store/database.js';
import { createSessionProfileRepository } from '../../../../controlplane/src/platform/store/session-profile-repository.js';
import { createTaskService } from '../../../../controlplane/src/tasks/task-service.js';
import { silentLogger } from '../../../support/silent-logger.js';
import { createTestTaskDeps } from '../../../support/test-task-deps.js';
import { cookieValue, origin, sessionFixture } from '../../browser/sessions/session-fixture.js';

const configAt = () =>
  loadConfig({ CLAWDIE_DATA_DIR: mkdtempSync(join(tmpdir(), 'clawdie-session-cli-')) });

describe('clawdie session', () => {
  it('parses list, save and revoke', () => {
    assert.deepEqual(parseCommand(['session', 'list', '--tenant', 'acme']), {
      name: 'session-list',
      tenant: 'acme',
    });
    assert.deepEqual(
      parseCommand([
        'session',
        'save',
        '--task',
        't1',
        '--name',
        'shop',
        '--origin',
        origin,
        '--origin',
        'https://a.example',
        '--ttl',
        '600',
      ]),
      {
        name: 'session-save',
        taskId: 't1',
        session: 'shop',
        origins: [origin, 'https://a.example'],
        ttlS: 600,
      },
    );
    assert.deepEqual(parseCommand(['session', 'revoke', 'shop']), {
      name: 'session-revoke',
      session: 'shop',
      tenant: undefined,
    });
    assert.throws(() => parseCommand(['session', 'save', '--task', 't1']), /--name: required/);
    assert.throws(() => parseCommand(['session', 'drop']), /unknown subcommand/);
  });

  it('lists and revokes on the store when no server runs, and refuses save', async () => {
    const config = configAt();
    const database = openDatabase(config.databasePath);
    await createSessionProfileRepository(database.db).put(
      {
        tenant: 'default',
        name: 'shop',
        origins: [origin],
        cookieCount: 2,
        sourceTask: null,
        createdBy: 'x',
        createdAt: Date.now(),
        expiresAt: Date.now() + 60_000,
        revokedAt: null,
      },
      { ciphertext: 'c', iv: 'i', tag: 't' },
    );
    database.close();
    const printed: unknown[] = [];
    const deps = { serverUrl: async () => null, print: (value: unknown) => printed.push(value) };
    await runSessionCommand({ name: 'session-list', tenant: undefined }, config, deps);
    assert.deepEqual(
      (printed[0] as { sessions: { name: string; state: string }[] }).sessions.map((s) => [
        s.name,
        s.state,
      ]),
      [['shop', 'active']],
    );
    await runSessionCommand(
      { name: 'session-revoke', session: 'shop', tenant: undefined },
      config,
      deps,
    );
    assert.equal((printed[1] as { state: string }).state, 'revoked');
    const save = {
      name: 'session-save' as const,
      taskId: 't',
      session: 's',
      origins: [origin],
      ttlS: undefined,
    };
    await assert.rejects(runSessionCommand(save, config, deps), { code: 'NO_SERVER' });
  });

  it('goes through the running server REST API when one holds the data directory', async () => {
    const test = createTestTaskDeps({
      model: createReplayModel(["Action: finished(content='ok')"]),
    });
    const tasks = createTaskService(test.deps);
    after(async () => {
      await tasks.close();
      test.close();
    });
    const sessions = sessionFixture();
    const app = createApp({
      tasks,
      repository: test.repository,
      logger: silentLogger,
      defaultMaxSteps: 3,
      describe: () => ({ model: { name: 'replay', replay: true }, jail: { url: 'http://x' } }),
      sessions: sessions.service,
    });
    const printed: unknown[] = [];
    const deps = {
      serverUrl: async () => 'http://server.test',
      fetch: ((url: string, init: RequestInit) => app.request(url, init)) as typeof fetch,
      print: (value: unknown) => printed.push(value),
    };
    const config = configAt();
    const save = {
      name: 'session-save' as const,
      taskId: 't-acme',
      session: 'shop',
      origins: [origin],
      ttlS: 120,
    };
    await runSessionCommand(save, config, deps);
    await runSessionCommand({ name: 'session-list', tenant: undefined }, config, deps);
    await runSessionCommand(
      { name: 'session-revoke', session: 'shop', tenant: 'acme' },
      config,
      deps,
    );
    assert.equal((printed[0] as { tenant: string }).tenant, 'acme');
    assert.equal((printed[1] as { sessions: unknown[] }).sessions.length, 1);
    assert.equal((printed[2] as { state: string }).state, 'revoked');
    assert.ok(!JSON.stringify(printed).includes(cookieValue));
  });

  it('names the variable to set when the running server wants its admin token', async () => {
    const config = configAt();
    const refused = (async () =>
      Response.json(
        { error: { code: 'UNAUTHORIZED', message: 'missing bearer token' } },
        { status: 401 },
      )) as typeof fetch;
    await assert.rejects(
      runSessionCommand({ name: 'session-list', tenant: undefined }, config, {
        serverUrl: async () => 'http://127.0.0.1:1',
        fetch: refused,
        print: () => undefined,
      }),
      /needs its admin token: set CLAWDIE_ADMIN_TOKEN/,
    );
  });

  it('finds the live server of the data directory from its instance row', async () => {
    const config = configAt();
    assert.equal(await runningServerUrl(config), null);
    const owner = await claimDataDirAt(config.databasePath, {
      kind: 'server',
      dataDir: config.dataDir,
      logger: silentLogger,
    });
    await owner.setUrl('http://127.0.0.1:9');
    assert.equal(await runningServerUrl(config), 'http://127.0.0.1:9');
    await owner.close();
    assert.equal(await runningServerUrl(config), null);
  });
});
