// npm run bench:profiles — what each model profile sends per step. For every built-in profile a
// 12-step task is played against its golden fake provider on loopback, through the real client
// and wire: each step a screenshot (the demo shop's pages and a dense article rendered by Chromium,
// model-image-screens.ts, in turn; without Chromium a changing synthetic page), marker shown, is
// encoded once by the profile's image policy, the request built, sent, and the reply read into the
// history. Per step: request bytes with the 5-image window, and the same request with every image
// it carries as PNG of the lossless capture at the same size (the reference SDK's request), so the
// ratio comes from one run; the same replies replayed with the other format (WebP for a JPEG
// profile, JPEG for a WebP one) give CLAWDIE_MODEL_IMAGE_FORMAT's ratio, and without the older
// screenshots' lower-quality copies (the hosted profiles; CLAWDIE_MODEL_OLDER_WEBP_QUALITY) theirs. Also the bytes that
// changed from the previous request (its length past the longest common prefix) — what a prefix
// cache (vLLM, llama.cpp, a hosted cache) must process anew — and the client+wire time per call
// against a raw fetch of the same bytes to the same server (p50), so the overhead is a ratio.
import sharp from 'sharp';
import { wireOf } from '../controlplane/src/agent/model/configured-model.js';
import { Conversation } from '../controlplane/src/agent/model/conversation.js';
import {
  DEFAULT_IMAGE_ENCODING,
  encodeForModel,
  type ModelImage,
} from '../controlplane/src/agent/model/image-encoder.js';
import type { ModelServer } from '../controlplane/src/agent/model/model-server.js';
import { createOpenAiCompatibleModel } from '../controlplane/src/agent/model/openai-compatible-model.js';
import { imagesAtOlderQuality } from '../controlplane/src/agent/profiles/image-window.js';
import { profileNamed } from '../controlplane/src/agent/profiles/index.js';
import type { ModelProfile, ModelTurn } from '../controlplane/src/agent/profiles/profile-types.js';
import type { Screenshot } from '../controlplane/src/browser/operator/browser-operator.js';
import { GOLDEN_FAKES } from '../test/support/golden/golden-fakes.js';
import { testImages } from '../test/support/test-images.js';
import { round, summarise } from './bench-stats.js';
import { renderBenchScreens } from './model-image-screens.js';

/** A server identified as vLLM (what `GET /v1/models` with `owned_by: "vllm"` gives). */
const VLLM: ModelServer = { kind: 'vllm', decodes: ['jpeg', 'png', 'webp'] };

const STEPS = Number(process.env.BENCH_STEPS ?? 12);
const WIDTH = 1280;
const HEIGHT = 800;
const WINDOW = 5;
const meta = {
  viewportWidth: WIDTH,
  viewportHeight: HEIGHT,
  devicePixelRatio: 1,
  imageWidth: WIDTH,
  imageHeight: HEIGHT,
};

/** A screen as the jail-service sends it (JPEG q80) and lossless (PNG). */
interface Screen {
  shot: Screenshot;
  png: Buffer;
}

/** Without Chromium: a page-like screen that changes every step (text bands, a block, the marker). */
async function syntheticScreen(step: number): Promise<Screen> {
  const rows = Array.from({ length: 30 }, (_, row) => {
    const width = 300 + ((row * 97 + step * 31) % 700);
    return `<rect x="40" y="${20 + row * 25}" width="${width}" height="10" fill="#556"/>`;
  }).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}">
<rect width="100%" height="100%" fill="#fafafa"/>${rows}
<rect x="${100 + step * 60}" y="600" width="160" height="90" fill="#2a7"/>
<rect x="806" y="464" width="24" height="24" fill="#ff00ff"/></svg>`;
  const jpeg = await sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer();
  return {
    shot: { jpeg, meta } as Screenshot,
    png: await sharp(Buffer.from(svg)).png().toBuffer(),
  };
}

async function benchScreens(): Promise<{ label: string; screens: Screen[] }> {
  const rendered = (await renderBenchScreens())?.filter((screen) => screen.dpr === 1);
  if (rendered?.length) {
    const screens = rendered.map(({ jpeg, png }) => ({ shot: { jpeg, meta } as Screenshot, png }));
    const names = rendered.map((screen) => screen.name).join(', ');
    return { label: `Chromium, 1280×800 DPR 1, in turn: ${names}`, screens };
  }
  const screens = await Promise.all(
    Array.from({ length: STEPS }, (_, step) => syntheticScreen(step)),
  );
  return { label: 'synthetic (no Chromium)', screens };
}

function changedBytes(previous: string, next: string): number {
  const max = Math.min(previous.length, next.length);
  let same = 0;
  while (same < max && previous.charCodeAt(same) === next.charCodeAt(same)) same += 1;
  return Buffer.byteLength(next.slice(same));
}

const base64Length = (bytes: number) => Math.ceil(bytes / 3) * 4;

/** Per step, the request bytes with `images` and with the same images as lossless PNG instead. */
function requestBytes(
  profile: ModelProfile,
  body: (conversation: Conversation) => string,
  images: readonly ModelImage[],
  pngs: readonly number[],
  turns: readonly ModelTurn[],
): { sent: number[]; reference: number[]; bodies: string[] } {
  const conversation = new Conversation({
    profile,
    instruction: 'Click the magenta square, then report what the page says.',
    actionSpace: 'browser',
    imageWindow: WINDOW,
  });
  const sent: number[] = [];
  const reference: number[] = [];
  const bodies: string[] = [];
  for (const [step, image] of images.entries()) {
    conversation.addScreenshot(image, 'http://127.0.0.1/bench');
    const text = body(conversation);
    const kept = conversation.imagesSent();
    const older = imagesAtOlderQuality(step + 1, WINDOW);
    const extra = images.slice(step + 1 - kept, step + 1).reduce((sum, each, index) => {
      const at = step + 1 - kept + index;
      const copy = at < older ? (each.older?.made ?? each) : each;
      return sum + base64Length(pngs[at] ?? 0) - copy.base64.length;
    }, 0);
    bodies.push(text);
    sent.push(Buffer.byteLength(text));
    reference.push(Buffer.byteLength(text) + extra);
    const turn = turns[step];
    if (turn) conversation.addReply(turn);
  }
  return { sent, reference, bodies };
}

const { label, screens } = await benchScreens();
const bytesRows: Record<string, unknown>[] = [];
const timeRows: Record<string, unknown>[] = [];

// The fakes posing as a server that changes the format are the "on vLLM" column here.
for (const fake of GOLDEN_FAKES.filter((entry) => !entry.imageFormat)) {
  const profile = profileNamed(fake.profile, fake.modelName);
  if (!profile) continue;
  const apiKey = `bench-${fake.profile}`;
  const server = await fake.start({ apiKey });
  const wire = wireOf(profile);
  const fields = { model: fake.modelName, maxTokens: 1024, temperature: 0, stream: false };
  const client = createOpenAiCompatibleModel({
    wire,
    baseUrl: server.url,
    model: fake.modelName,
    apiKey,
    timeoutMs: 10_000,
    retries: 0,
    maxTokens: 1024,
    temperature: 0,
  });
  const conversation = new Conversation({
    profile,
    instruction: 'Click the magenta square, then report what the page says.',
    actionSpace: 'browser',
    imageWindow: WINDOW,
  });
  const size = profile.image.size(WIDTH, HEIGHT);
  const steps = Array.from(
    { length: STEPS },
    (_, step) => screens[step % screens.length] as Screen,
  );
  const encode = (
    format: 'jpeg' | 'webp' | null,
    olderWebpQuality = DEFAULT_IMAGE_ENCODING.olderWebpQuality,
    server: ModelServer | undefined = undefined,
  ) =>
    Promise.all(
      steps.map(({ shot }) =>
        encodeForModel(
          shot,
          {
            image: profile.image,
            encoding: { ...DEFAULT_IMAGE_ENCODING, format, olderWebpQuality },
            server,
          },
          testImages,
        ).then(async (image) => {
          // Made at once here: the byte counts below build requests without a task's prepare().
          await image.older?.make();
          return image;
        }),
      ),
    );
  const images = await encode(null);
  // PNG at the profile's size of the lossless capture (what the reference SDK sends), and of the
  // JPEG the controlplane gets (bench:step's reference, behind the earlier 0.30× figure).
  const pngOf = (sources: readonly Buffer[]) =>
    Promise.all(
      sources.map(async (source) =>
        sharp(source)
          .resize(size.width, size.height, { fit: 'fill', kernel: 'lanczos3' })
          .png()
          .toBuffer()
          .then((buffer) => buffer.length),
      ),
    );
  const pngs = await pngOf(steps.map(({ png }) => png));
  const jpegPngs = await pngOf(steps.map(({ shot }) => shot.jpeg));
  const turns: ModelTurn[] = [];
  const clientMs: number[] = [];
  const rawMs: number[] = [];
  for (const image of images) {
    conversation.addScreenshot(image, 'http://127.0.0.1/bench');
    await conversation.prepare();
    const body = conversation.request();
    const sent = JSON.stringify(wire.body(body, fields));
    // Raw: the same bytes, the same server, no client (limiter, retries, wire reading).
    let started = performance.now();
    const raw = await fetch(wire.endpoint(server.url, fake.modelName), {
      method: 'POST',
      headers: wire.headers(apiKey),
      body: sent,
    });
    await raw.text();
    rawMs.push(performance.now() - started);
    started = performance.now();
    const reply = await client.complete({ messages: [], body });
    clientMs.push(performance.now() - started);
    const { turn } = profile.readReply({ text: reply.text, body: reply.body ?? null });
    turns.push(turn);
    conversation.addReply(turn);
  }
  await server.close();
  // Steps with a full window (the first WINDOW − 1 carry fewer images).
  const full = (values: number[]) => summarise(values.slice(WINDOW - 1)).p50;
  const bodyOf = (c: Conversation) => JSON.stringify(wire.body(c.request(), fields));
  const own = requestBytes(profile, bodyOf, images, pngs, turns);
  const ownVsJpegPng = requestBytes(profile, bodyOf, images, jpegPngs, turns);
  const otherFormat = profile.image.format === 'jpeg' ? 'webp' : 'jpeg';
  const otherImages = await encode(otherFormat);
  const other = requestBytes(profile, bodyOf, otherImages, pngs, turns);
  const otherVsJpegPng = requestBytes(profile, bodyOf, otherImages, jpegPngs, turns);
  const ratio = (run: { sent: number[]; reference: number[] }) =>
    round(full(run.sent) / full(run.reference), 3);
  // The default where the server says it is vLLM or SGLang (model-server.ts): the profile's
  // preferred format, chosen through the same path a task takes.
  const servedImages = await encode(null, undefined, VLLM);
  const served = requestBytes(profile, bodyOf, servedImages, pngs, turns);
  const servedVsJpegPng = requestBytes(profile, bodyOf, servedImages, jpegPngs, turns);
  const sameImages = profile.image.olderAtLowerQuality ? await encode(null, 100) : null;
  const same = sameImages ? requestBytes(profile, bodyOf, sameImages, pngs, turns) : null;
  const sameVsJpegPng = sameImages
    ? requestBytes(profile, bodyOf, sameImages, jpegPngs, turns)
    : null;
  const changed = own.bodies.slice(1).map((text, i) => changedBytes(own.bodies[i] ?? '', text));
  bytesRows.push({
    profile: fake.label,
    image: `${size.width}×${size.height} ${profile.image.format}`,
    'step kB p50': round(full(own.sent) / 1024, 1),
    'PNG step kB p50': round(full(own.reference) / 1024, 1),
    'vs PNG': ratio(own),
    'vs PNG of JPEG': ratio(ownVsJpegPng),
    'no older copies vs PNG': same ? ratio(same) : '—',
    'no older copies vs PNG of JPEG': sameVsJpegPng ? ratio(sameVsJpegPng) : '—',
    'on vLLM: image, vs PNG / of JPEG': `${servedImages[0]?.mediaType.slice(6)} ${ratio(served)} / ${ratio(servedVsJpegPng)}`,
    other: otherFormat,
    'other vs PNG': ratio(other),
    'other vs PNG of JPEG': ratio(otherVsJpegPng),
    'changed / sent (p50)': round(summarise(changed).p50 / full(own.sent), 3),
  });
  timeRows.push({
    profile: fake.label,
    'client+fake ms p50': round(summarise(clientMs).p50, 2),
    'raw fetch ms p50': round(summarise(rawMs).p50, 2),
    'client / raw': round(summarise(clientMs).p50 / summarise(rawMs).p50, 2),
  });
}
console.log(
  `screens: ${label}; ${STEPS} steps, window ${WINDOW}; p50 over steps ${WINDOW}…${STEPS}`,
);
console.table(bytesRows);
console.table(timeRows);
