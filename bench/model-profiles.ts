// npm run bench:profiles — what each model profile sends per step. For every built-in profile a
// 12-step task is played against its golden fake provider on loopback, through the real client
// and wire: each step a new 1280×800 screenshot (a changing synthetic page, magenta marker shown)
// is encoded by the profile's image policy, the request built, sent, and the reply read into the
// history. Per step: request bytes, and the bytes that changed from the previous request (its
// length past the longest common prefix) — what a prefix cache (vLLM, llama.cpp, a hosted cache)
// must process anew. The same run also times the client+wire per call against a raw fetch of the
// same bytes to the same server (p50), so the overhead is a ratio, not an absolute.
import sharp from 'sharp';
import { wireOf } from '../controlplane/src/agent/model/configured-model.js';
import { Conversation } from '../controlplane/src/agent/model/conversation.js';
import { encodeForModel } from '../controlplane/src/agent/model/image-encoder.js';
import { createOpenAiCompatibleModel } from '../controlplane/src/agent/model/openai-compatible-model.js';
import { profileNamed } from '../controlplane/src/agent/profiles/index.js';
import type { Screenshot } from '../controlplane/src/browser/operator/browser-operator.js';
import { GOLDEN_FAKES } from '../test/support/golden/golden-fakes.js';
import { testImages } from '../test/support/test-images.js';
import { round, summarise } from './bench-stats.js';

const STEPS = Number(process.env.BENCH_STEPS ?? 12);
const WIDTH = 1280;
const HEIGHT = 800;

/** A page-like screenshot that changes every step: bands of "text", a moving block, the marker. */
async function screenshotAt(step: number): Promise<Screenshot> {
  const rows = Array.from({ length: 30 }, (_, row) => {
    const width = 300 + ((row * 97 + step * 31) % 700);
    return `<rect x="40" y="${20 + row * 25}" width="${width}" height="10" fill="#556"/>`;
  }).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}">
<rect width="100%" height="100%" fill="#fafafa"/>${rows}
<rect x="${100 + step * 60}" y="600" width="160" height="90" fill="#2a7"/>
<rect x="806" y="464" width="24" height="24" fill="#ff00ff"/></svg>`;
  const jpeg = await sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer();
  const meta = {
    viewportWidth: WIDTH,
    viewportHeight: HEIGHT,
    devicePixelRatio: 1,
    imageWidth: WIDTH,
    imageHeight: HEIGHT,
  };
  return { jpeg, meta } as Screenshot;
}

function changedBytes(previous: string, next: string): number {
  const max = Math.min(previous.length, next.length);
  let same = 0;
  while (same < max && previous.charCodeAt(same) === next.charCodeAt(same)) same += 1;
  return Buffer.byteLength(next.slice(same));
}

const shots = await Promise.all(Array.from({ length: STEPS }, (_, step) => screenshotAt(step)));
const rows: Record<string, unknown>[] = [];

for (const fake of GOLDEN_FAKES) {
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
    imageWindow: 5,
  });
  const bytes: number[] = [];
  const changed: number[] = [];
  const clientMs: number[] = [];
  const rawMs: number[] = [];
  let previous = '';
  let imageSize = '';
  for (const shot of shots) {
    const image = await encodeForModel(shot, { image: profile.image, jpegQuality: 80 }, testImages);
    imageSize = `${image.width}×${image.height}`;
    conversation.addScreenshot(image, 'http://127.0.0.1/bench');
    const body = conversation.request();
    const sent = JSON.stringify(wire.body(body, fields));
    bytes.push(Buffer.byteLength(sent));
    if (previous) changed.push(changedBytes(previous, sent));
    previous = sent;
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
    conversation.addReply(profile.readReply({ text: reply.text, body: reply.body ?? null }).turn);
  }
  await server.close();
  const totals = summarise(bytes.slice(1));
  const deltas = summarise(changed);
  rows.push({
    profile: fake.label,
    image: imageSize,
    'first request kB': round((bytes[0] ?? 0) / 1024, 1),
    'request kB p50': round(totals.p50 / 1024, 1),
    'changed kB p50': round(deltas.p50 / 1024, 1),
    'changed kB max': round(Math.max(...changed) / 1024, 1),
    'changed / sent (p50)': round(deltas.p50 / totals.p50, 3),
    'client+fake ms p50': round(summarise(clientMs).p50, 2),
    'raw fetch ms p50': round(summarise(rawMs).p50, 2),
    'client / raw': round(summarise(clientMs).p50 / summarise(rawMs).p50, 2),
  });
}
console.table(rows);
