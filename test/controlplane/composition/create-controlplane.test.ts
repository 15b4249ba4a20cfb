// The composition root's lifecycle: each port is used once, `close()` releases in reverse order
// of start (idempotently), and a start that fails half-way releases what it opened, the
// data-dir claim included.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { describe, it } from 'node:test';
import { createReplayModel } from '../../../controlplane/src/agent/model/replay-model.js';
import type { EmbeddedHostd } from '../../../controlplane/src/browser/provider/embedded-hostd.js';
import { AppError } from '../../../controlplane/src/errors.js';
import {
  createTestControlplane,
  operatorBrowserSource,
  testConfig,
} from '../../support/controlplane.js';
import { createFakeOperator } from '../../support/fake-operator.js';

describe('createControlplane', () => {
  it('asks each port once and releases hostd, the demo shop and the browsers in reverse order', async (t) => {
    const config = testConfig();
    t.after(() => rmSync(config.dataDir, { recursive: true, force: true }));
    const calls: string[] = [];
    const released: string[] = [];
    const controlplane = await createTestControlplane({
      config,
      role: 'server',
      adapters: {
        model: async () => {
          calls.push('model');
          return null;
        },
        browsers: async (effective) => {
          calls.push(`browsers ${effective.hostd?.url}`);
          return {
            ...operatorBrowserSource(createFakeOperator().operator),
            close: async () => {
              released.push('browsers');
            },
          };
        },
        demoSite: async () => {
          calls.push('demo shop');
          return { url: 'http://127.0.0.1:9', close: async () => void released.push('demo') };
        },
        embeddedHostd: async (_config, options) => {
          calls.push(`hostd ${options.egressAllowInternal.join(',')}`);
          return {
            url: 'http://127.0.0.1:7070',
            token: 'embedded-hostd-token-0123456789',
            stop: async () => void released.push('hostd'),
          } as unknown as EmbeddedHostd;
        },
      },
    });
    // The demo shop starts first, so the embedded hostd lets clones reach exactly it; the
    // browsers then come from that hostd.
    assert.deepEqual(calls, [
      'demo shop',
      'hostd 127.0.0.1:9',
      'model',
      'browsers http://127.0.0.1:7070',
    ]);
    assert.equal(controlplane.config.hostd?.url, 'http://127.0.0.1:7070');
    assert.equal(controlplane.demoSite?.url, 'http://127.0.0.1:9');
    assert.equal(controlplane.model, null);
    await controlplane.close();
    await controlplane.close();
    assert.deepEqual(released, ['browsers', 'hostd', 'demo']);
  });

  it('a browser source that fails to open fails the start; the claim and the demo shop are released', async (t) => {
    const config = testConfig();
    t.after(() => rmSync(config.dataDir, { recursive: true, force: true }));
    const released: string[] = [];
    await assert.rejects(
      createTestControlplane({
        config,
        role: 'server',
        model: createReplayModel([]),
        adapters: {
          demoSite: async () => ({
            url: 'http://127.0.0.1:9',
            close: async () => void released.push('demo'),
          }),
          browsers: async () => {
            throw new Error('no browser today');
          },
        },
      }),
      (error: unknown) =>
        error instanceof AppError &&
        error.code === 'STARTUP_FAILED' &&
        /no browser today/.test(error.message),
    );
    assert.deepEqual(released, ['demo']);
    const next = await createTestControlplane({ config, role: 'server' });
    await next.close();
  });

  it('a model that cannot be built fails the start and releases the demo shop and the claim', async (t) => {
    const config = testConfig();
    t.after(() => rmSync(config.dataDir, { recursive: true, force: true }));
    const released: string[] = [];
    await assert.rejects(
      createTestControlplane({
        config,
        role: 'server',
        adapters: {
          demoSite: async () => ({
            url: 'http://127.0.0.1:9',
            close: async () => void released.push('demo'),
          }),
          model: async () => {
            throw new Error('model file unreadable');
          },
        },
      }),
      /model file unreadable/,
    );
    assert.deepEqual(released, ['demo']);
    const next = await createTestControlplane({ config, role: 'server' });
    await next.close();
  });
});
