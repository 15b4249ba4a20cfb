// CLAWDIE_IMAGE_ENCODER: auto takes sharp when it loads and falls back to pure JS with the reason
// when it does not (the loader is injected to fail, as on a host without a sharp build); the
// jail-service logs its choice at start and reports it in GET /health.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { loadConfig, startJailService } from '@clawdie/jail-service/server';
import { selectImageCodec } from '@clawdie/kit/images';
import { createLogger } from '@clawdie/kit/logger';
import sharp from 'sharp';
import { chromiumPath, requires } from '../../support/capabilities.js';

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

describe('jail-service start without a loadable sharp', () => {
  it('logs the pure-JS choice and reports it in GET /health', requires('chromium'), async () => {
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
      CLAWDIE_CHROMIUM_PATH: chromiumPath,
    });
    const service = await startJailService(config, logger, { loadSharp: noSharp });
    try {
      const response = await fetch(`${service.url}/health`, {
        headers: { authorization: 'Bearer images-token' },
      });
      const health = (await response.json()) as { images?: string };
      assert.match(health.images ?? '', /^pure-JS encoder .*sharp not loadable: Could not load/);
      const logged = lines.map((line) => JSON.parse(line)).find((line) => line.images);
      assert.equal(logged?.images, health.images);
      assert.equal(logged?.level, 40, 'a fallback is logged as a warning');
    } finally {
      await service.close();
    }
  });
});
