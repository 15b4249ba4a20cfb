// CLAWDIE_IMAGE_ENCODER: auto takes sharp when it loads and falls back to pure JS with the reason
// when it does not (the loader is injected to fail, as on a host without a sharp build); a browser
// clone's jail-service makes, logs and reports (GET /health) its choice on the first masked
// screenshot, so a clone that never masks a field never loads sharp.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { loadConfig, startJailService } from '@clawdie/jail-service/server';
import { NOT_YET_CHOSEN, selectImageCodec } from '@clawdie/kit/images';
import { createLogger } from '@clawdie/kit/logger';
import sharp from 'sharp';
import { startSites } from '../../jail-service/landing-pages.js';
import { jailChromiumEnv, requires } from '../../support/capabilities.js';

const noSharp = () =>
  Promise.reject(
    new Error(
      'Could not load the "sharp" module using the freebsd-x64 runtime\nPossible solutions: ...',
    ),
  );

describe('selectImageCodec', () => {
  it('auto: sharp when it loads, named with its libvips version', async () => {
    const choice = await selectImageCodec('auto');
    assert.equal(choice.codec.kind, 'sharp');
    assert.equal(choice.fallbackReason, null);
    assert.equal(choice.summary, `sharp ${sharp.versions.sharp} (libvips ${sharp.versions.vips})`);
  });

  it('auto: pure JS with the first line of the load error when sharp cannot be loaded', async () => {
    const choice = await selectImageCodec('auto', { loadSharp: noSharp });
    assert.equal(choice.codec.kind, 'js');
    assert.equal(
      choice.summary,
      'pure-JS encoder (jpeg-js, pngjs) (sharp not loadable: Could not load the "sharp" module using the freebsd-x64 runtime)',
    );
  });

  it('auto: pure JS when sharp loads but cannot encode', async () => {
    const broken = (() => {
      throw new Error('wasm trap');
    }) as unknown as typeof sharp;
    Object.assign(broken, { versions: sharp.versions });
    const choice = await selectImageCodec('auto', { loadSharp: async () => broken });
    assert.equal(choice.codec.kind, 'js');
    assert.match(choice.summary, /sharp not loadable: wasm trap/);
  });

  it('sharp: start-up fails with IMAGE_CODEC_UNAVAILABLE instead of falling back', async () => {
    await assert.rejects(selectImageCodec('sharp', { loadSharp: noSharp }), {
      code: 'IMAGE_CODEC_UNAVAILABLE',
    });
  });

  it('js: never loads sharp', async () => {
    let loaded = false;
    const choice = await selectImageCodec('js', {
      loadSharp: async () => {
        loaded = true;
        return sharp;
      },
    });
    assert.deepEqual([choice.codec.kind, loaded], ['js', false]);
    assert.match(choice.summary, /CLAWDIE_IMAGE_ENCODER=js/);
  });
});

describe('jail-service without a loadable sharp (CLAWDIE_IMAGE_ENCODER=auto, no display)', () => {
  it(
    'does not load sharp at start; the first masked screenshot chooses, logs and reports the pure-JS encoder',
    requires('chromium'),
    async () => {
      const lines: string[] = [];
      const stream = new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
          done();
        },
      });
      const logger = createLogger({ service: 'jail-service', level: 'info', destination: stream });
      const config = loadConfig({
        CLAWDIE_JAIL_TOKEN: 'images-token',
        CLAWDIE_JAIL_PORT: '0',
        ...jailChromiumEnv,
      });
      let loads = 0;
      const loadSharp = () => {
        loads += 1;
        return noSharp();
      };
      const { sites, close: closeSites } = await startSites();
      const service = await startJailService(config, logger, { loadSharp });
      const call = (path: string, body?: unknown) =>
        fetch(`${service.url}${path}`, {
          method: body ? 'POST' : 'GET',
          headers: { authorization: 'Bearer images-token', 'content-type': 'application/json' },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
      const images = async () =>
        ((await (await call('/health')).json()) as { images?: string }).images ?? '';
      const logged = () => lines.map((line) => JSON.parse(line)).filter((line) => line.images);
      try {
        assert.equal(loads, 0, 'sharp is not loaded at start');
        assert.equal(await images(), NOT_YET_CHOSEN);
        assert.deepEqual(logged(), []);

        await (await call('/screenshot')).arrayBuffer();
        assert.equal(loads, 0, 'a screenshot without masks needs no encoder');

        const guard = { origins: [sites.a], fields: ['text'], autocomplete: [] };
        const actions = [
          { type: 'navigate', url: `${sites.a}/login` },
          { type: 'click', x: 100, y: 230 },
          { type: 'type', text: 'Hunter2-Secret', secret: guard },
        ];
        assert.equal((await call('/actions', { actions })).status, 200);
        assert.equal((await call('/screenshot')).status, 200);
        assert.equal(loads, 1, 'the masked screenshot chose the encoder once');
        assert.match(await images(), /^pure-JS encoder .*sharp not loadable: Could not load/);
        assert.equal(logged().length, 1);
        assert.equal(logged()[0]?.images, await images());
        assert.equal(logged()[0]?.level, 40, 'a fallback is logged as a warning');
      } finally {
        await service.close();
        await closeSites();
      }
    },
  );
});
