// The model's screenshot encode: each profile's default format (WebP for the hosted APIs, JPEG
// for self-hosted servers), CLAWDIE_MODEL_IMAGE_FORMAT over it, the pure-JS codec's JPEG fallback,
// and the golden marker where it was after the encode.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createJsCodec, imageSize } from '@clawdie/kit/images';
import sharp from 'sharp';
import {
  DEFAULT_IMAGE_ENCODING,
  describeModelImages,
  encodeForModel,
} from '../../../../controlplane/src/agent/model/image-encoder.js';
import type { ModelServer } from '../../../../controlplane/src/agent/model/model-server.js';
import { profileNamed } from '../../../../controlplane/src/agent/profiles/index.js';
import {
  PROFILE_NAMES,
  type ProfileName,
} from '../../../../controlplane/src/agent/profiles/profile-types.js';
import type { Screenshot } from '../../../../controlplane/src/browser/operator/browser-operator.js';
import { findMarker } from '../../../support/golden/find-marker.js';
import { testImages } from '../../../support/test-images.js';

const W = 1280;
const H = 800;

/** A page-like 1280×800 JPEG q80 (as the jail-service sends it) with the magenta marker. */
async function screenshot(): Promise<Screenshot> {
  const rows = Array.from(
    { length: 28 },
    (_, row) =>
      `<rect x="40" y="${30 + row * 26}" width="${300 + ((row * 97) % 700)}" height="9" fill="#445"/>`,
  ).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">
<rect width="100%" height="100%" fill="#fafafa"/>${rows}
<rect x="806" y="464" width="24" height="24" fill="#ff00ff"/></svg>`;
  const jpeg = await sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer();
  const meta = {
    viewportWidth: W,
    viewportHeight: H,
    devicePixelRatio: 1,
    imageWidth: W,
    imageHeight: H,
  };
  return { jpeg, meta } as Screenshot;
}

const DEFAULTS: Record<ProfileName, string> = {
  'ui-tars-1.5': 'image/jpeg',
  'ui-tars-1.0': 'image/jpeg',
  'qwen2.5-vl': 'image/jpeg',
  'qwen3-vl': 'image/jpeg',
  'openai-computer-use': 'image/webp',
  'anthropic-computer-use': 'image/webp',
  'gemini-computer-use': 'image/webp',
};

describe('encodeForModel', () => {
  it('sends each profile its default format at its size, the marker where it was', async () => {
    const shot = await screenshot();
    for (const name of PROFILE_NAMES) {
      const profile = profileNamed(name);
      assert.ok(profile);
      const image = await encodeForModel(
        shot,
        { image: profile.image, encoding: DEFAULT_IMAGE_ENCODING },
        testImages,
      );
      const target = profile.image.size(W, H);
      assert.equal(image.mediaType, DEFAULTS[name], name);
      assert.ok(image.dataUrl.startsWith(`data:${image.mediaType};base64,`), name);
      const bytes = Buffer.from(image.base64, 'base64');
      assert.equal(bytes.length, image.bytes);
      assert.deepEqual(imageSize(bytes), target, name);
      assert.deepEqual([image.width, image.height], [target.width, target.height]);
      // The marker's centre (818, 476) scaled to the image, within a pixel.
      const found = await findMarker(bytes);
      assert.ok(found.centre, name);
      const x = (818 * target.width) / W;
      const y = (476 * target.height) / H;
      assert.ok(
        Math.hypot(found.centre.x - x, found.centre.y - y) <= 1,
        `${name}: ${JSON.stringify(found.centre)} vs (${x}, ${y})`,
      );
    }
  });

  it('sends the hosted profiles WebP at under half the bytes of JPEG q80', async () => {
    const shot = await screenshot();
    const profile = profileNamed('anthropic-computer-use');
    assert.ok(profile);
    const webp = await encodeForModel(
      shot,
      { image: profile.image, encoding: DEFAULT_IMAGE_ENCODING },
      testImages,
    );
    const jpeg = await encodeForModel(
      shot,
      { image: profile.image, encoding: { ...DEFAULT_IMAGE_ENCODING, format: 'jpeg' } },
      testImages,
    );
    assert.equal(webp.mediaType, 'image/webp');
    assert.equal(jpeg.mediaType, 'image/jpeg');
    // 1280×800 is Anthropic's size already: the jail-service's JPEG goes as it came.
    assert.equal(jpeg.reencoded, false);
    assert.equal(jpeg.bytes, shot.jpeg.length);
    assert.ok(webp.bytes * 2 < jpeg.bytes, `${webp.bytes} vs ${jpeg.bytes}`);
  });

  it('encodes a lower-quality copy for older screenshots where the profile allows it', async () => {
    const shot = await screenshot();
    const encode = (name: ProfileName, format: 'webp' | 'jpeg' | null = null) => {
      const profile = profileNamed(name);
      assert.ok(profile);
      const encoding = { ...DEFAULT_IMAGE_ENCODING, format };
      return encodeForModel(shot, { image: profile.image, encoding }, testImages);
    };
    for (const name of [
      'anthropic-computer-use',
      'openai-computer-use',
      'gemini-computer-use',
    ] as const) {
      const image = await encode(name);
      assert.ok(image.older, name);
      assert.equal(image.older.made, null, `${name}: not encoded until a request needs it`);
      const older = await image.older.make();
      assert.equal(image.older.made, older);
      assert.equal(await image.older.make(), older, 'made once');
      assert.equal(older.mediaType, 'image/webp');
      assert.deepEqual([older.width, older.height], [image.width, image.height]);
      const bytes = Buffer.from(older.base64, 'base64');
      assert.deepEqual(imageSize(bytes), { width: image.width, height: image.height });
      assert.ok(older.bytes < image.bytes, `${name}: ${older.bytes} vs ${image.bytes}`);
      assert.ok((await findMarker(bytes)).centre, name);
    }
    // Self-hosted profiles send every screenshot alike; JPEG gets no copy.
    assert.equal((await encode('ui-tars-1.5', 'webp')).older, undefined);
    assert.equal((await encode('anthropic-computer-use', 'jpeg')).older, undefined);
  });

  it('follows CLAWDIE_MODEL_IMAGE_FORMAT over the profile, and its quality', async () => {
    const shot = await screenshot();
    const profile = profileNamed('ui-tars-1.5');
    assert.ok(profile);
    const encode = (format: 'webp' | 'png', webpQuality = 50) =>
      encodeForModel(
        shot,
        { image: profile.image, encoding: { ...DEFAULT_IMAGE_ENCODING, format, webpQuality } },
        testImages,
      );
    const webp = await encode('webp');
    assert.equal(webp.mediaType, 'image/webp');
    assert.ok((await encode('webp', 90)).bytes > webp.bytes);
    const png = await encode('png');
    assert.equal(png.mediaType, 'image/png');
    assert.equal((await sharp(Buffer.from(png.base64, 'base64')).metadata()).format, 'png');
  });

  it('falls back to JPEG where the codec cannot write the format (pure JS, no WebP)', async () => {
    const shot = await screenshot();
    const profile = profileNamed('gemini-computer-use');
    assert.ok(profile);
    const image = await encodeForModel(
      shot,
      { image: profile.image, encoding: DEFAULT_IMAGE_ENCODING },
      createJsCodec(),
    );
    assert.equal(image.mediaType, 'image/jpeg');
    assert.deepEqual(imageSize(Buffer.from(image.base64, 'base64')), profile.image.size(W, H));
  });

  it('sends the self-hosted profiles WebP where the server says it decodes it, JPEG elsewhere', async () => {
    const shot = await screenshot();
    const servers = {
      vllm: { kind: 'vllm', decodes: ['jpeg', 'png', 'webp'] },
      llama: { kind: 'llama.cpp', decodes: ['jpeg', 'png'] },
      unknown: { kind: 'unknown', decodes: null },
    } as const satisfies Record<string, ModelServer>;
    const encode = (name: ProfileName, server: ModelServer, format: 'jpeg' | null = null) => {
      const profile = profileNamed(name);
      assert.ok(profile);
      const options = {
        image: profile.image,
        encoding: { ...DEFAULT_IMAGE_ENCODING, format },
        server,
      };
      return encodeForModel(shot, options, testImages).then((image) => ({
        image,
        why: describeModelImages(options, testImages),
      }));
    };
    for (const name of ['ui-tars-1.5', 'ui-tars-1.0', 'qwen2.5-vl', 'qwen3-vl'] as const) {
      const onVllm = await encode(name, servers.vllm);
      assert.equal(onVllm.image.mediaType, 'image/webp', name);
      assert.equal(
        onVllm.image.older,
        undefined,
        `${name}: self-hosted send every screenshot alike`,
      );
      assert.match(onVllm.why, /^WEBP q40 \(vLLM decodes it/);
      const bytes = Buffer.from(onVllm.image.base64, 'base64');
      assert.equal((await sharp(bytes).metadata()).format, 'webp');
      assert.ok((await findMarker(bytes)).centre, name);
      for (const server of [servers.llama, servers.unknown]) {
        const other = await encode(name, server);
        assert.equal(other.image.mediaType, 'image/jpeg', `${name} on ${server.kind}`);
      }
      // The operator's format wins over the server's.
      assert.equal((await encode(name, servers.vllm, 'jpeg')).image.mediaType, 'image/jpeg');
    }
    assert.match(
      (await encode('ui-tars-1.5', servers.llama)).why,
      /llama\.cpp is not known to decode webp/,
    );
    // The hosted profiles are WebP whatever the server.
    assert.equal(
      (await encode('gemini-computer-use', servers.llama)).image.mediaType,
      'image/webp',
    );
    // The pure-JS codec writes no WebP: JPEG even on vLLM, and it says why.
    const profile = profileNamed('ui-tars-1.5');
    assert.ok(profile);
    const options = {
      image: profile.image,
      encoding: DEFAULT_IMAGE_ENCODING,
      server: servers.vllm,
    };
    const js = createJsCodec();
    assert.equal((await encodeForModel(shot, options, js)).mediaType, 'image/jpeg');
    assert.match(
      describeModelImages(options, js),
      /^JPEG q80 \(the profile's: the js codec cannot write webp\)/,
    );
    // Not asked yet (the banner): says what decides.
    const banner = describeModelImages(
      { image: profile.image, encoding: DEFAULT_IMAGE_ENCODING },
      testImages,
    );
    assert.match(
      banner,
      /^JPEG q80 \(the profile's; WEBP where the server says it is vLLM, SGLang or Ollama ≥ 0.32.14/,
    );
  });
});
