// Issue 24, point 1: can a step skip Chromium's screenshot encode when the page drew nothing new?
// The headless shell (the clones' browser) offers begin-frame control: with
// `--enable-begin-frame-control` and a tab made by `Target.createTarget({enableBeginFrameControl})`,
// the browser draws only when told (`HeadlessExperimental.beginFrame`), and each frame reports
// whether it drew anything (`hasDamage`). A step can then ask for one frame without a screenshot
// (≈ 1 ms) and reuse the last image when nothing was drawn since it.
//
// Three browsers of the same binary take the same step interleaved (screenshot, then a click):
// raw = `Page.captureScreenshot` + three mouse events in the normal mode (the floor issue 24 names);
// frames = begin-frame control, a proof frame, a screenshot frame only when a frame drew since the
// last image, input sent while frames are pumped (input waits for a frame under frame control);
// frames-flush = the same, but the frame after each screenshot frame is assumed clean (a screenshot
// frame always leaves one damaged frame behind): the best case, which is not provably current.
// Two clicks: on a button (its :hover/:active state repaints it) and on plain text (draws nothing).
// CPU per step = user + system time of each browser's process tree (/proc, 10 ms ticks).
// Usage: npm run bench:frame-control [-- --n=100 --dpr=1]
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import puppeteer, { type Browser, type CDPSession, type Page } from 'puppeteer-core';
import { CHROMIUM_FLAGS } from '../jail-service/src/browser/chromium-args.js';
import { HEADLESS_SHELL } from '../jail-service/src/browser/chromium-binary.js';
import { percentile } from './bench-stats.js';

const { values } = parseArgs({
  options: { n: { type: 'string', default: '100' }, dpr: { type: 'string', default: '1' } },
});
const rounds = Number(values.n);
const dpr = Number(values.dpr);
const SHOT = { format: 'jpeg', quality: 80, optimizeForSpeed: true } as const;
const PAGE = `<body style="margin:0;font:16px sans-serif"><h1>Shop</h1>
<p style="margin-top:120px">${'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(60)}</p>
<button style="position:absolute;left:0;top:0;width:200px;height:100px">Buy</button></body>`;
const CLICKS = [
  { name: 'click on a button (repaints it)', x: 100, y: 50 },
  { name: 'click on text (draws nothing)', x: 700, y: 500 },
];

interface Side {
  name: string;
  browser: Browser;
  /** One step; resolves to the image's width × height and whether it was reused. */
  step(x: number, y: number): Promise<{ size: string; reused: boolean }>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function launch(extra: string[]): Promise<{ browser: Browser; profile: string }> {
  const profile = await mkdtemp(join(tmpdir(), 'bench-frame-control-'));
  const browser = await puppeteer.launch({
    executablePath: HEADLESS_SHELL,
    env: { PATH: '/usr/bin:/bin' },
    ignoreDefaultArgs: true,
    args: [...CHROMIUM_FLAGS, ...extra, `--user-data-dir=${profile}`, 'about:blank'],
    pipe: true,
    defaultViewport: null,
  });
  return { browser, profile };
}

async function open(cdp: CDPSession): Promise<void> {
  await cdp.send('Emulation.setDeviceMetricsOverride', {
    width: 1280,
    height: 800,
    deviceScaleFactor: dpr,
    mobile: false,
  });
}

/** Width × height of a baseline JPEG, from its SOF0 segment. */
function jpegSize(base64: string): string {
  const bytes = Buffer.from(base64, 'base64');
  for (let at = 2; at < bytes.length; at += 2 + bytes.readUInt16BE(at + 2)) {
    if (bytes[at + 1] === 0xc0)
      return `${bytes.readUInt16BE(at + 7)}×${bytes.readUInt16BE(at + 5)}`;
  }
  return '?';
}

async function click(cdp: CDPSession, x: number, y: number, send = <T>(p: Promise<T>) => p) {
  for (const type of ['mouseMoved', 'mousePressed', 'mouseReleased'] as const) {
    await send(cdp.send('Input.dispatchMouseEvent', { type, x, y, button: 'left', clickCount: 1 }));
  }
}

async function rawSide(): Promise<Side & { profile: string }> {
  const { browser, profile } = await launch([]);
  const page = (await browser.pages())[0] as Page;
  const cdp = await page.createCDPSession();
  await open(cdp);
  await page.goto(`data:text/html,${encodeURIComponent(PAGE)}`);
  return {
    name: 'raw',
    browser,
    profile,
    async step(x, y) {
      const { data } = await cdp.send('Page.captureScreenshot', SHOT);
      await click(cdp, x, y);
      return { size: jpegSize(data), reused: false };
    },
  };
}

async function frameSide(flush: boolean): Promise<Side & { profile: string }> {
  const { browser, profile } = await launch([
    '--enable-begin-frame-control',
    '--run-all-compositor-stages-before-draw',
  ]);
  const root = await browser.target().createCDPSession();
  const made = (await root.send('Target.createTarget', {
    url: 'about:blank',
    enableBeginFrameControl: true,
  } as never)) as { targetId: string };
  const target = await browser.waitForTarget(
    (t) => (t as unknown as { _targetId: string })._targetId === made.targetId,
  );
  const page = (await target.page()) as Page;
  const cdp = await page.createCDPSession();
  let drawnSinceImage = true;
  let image = '';
  const frame = async (shot: boolean) => {
    const reply = (await cdp.send(
      'HeadlessExperimental.beginFrame',
      shot ? { screenshot: SHOT } : {},
    )) as { hasDamage: boolean; screenshotData?: string };
    if (shot && reply.screenshotData) [image, drawnSinceImage] = [reply.screenshotData, false];
    else if (!shot && reply.hasDamage) drawnSinceImage = true;
  };
  /** Frames while `pending` runs: under frame control, input and loads wait for one. */
  const pumped = async <T>(pending: Promise<T>): Promise<T> => {
    let settled = false;
    pending.then(
      () => (settled = true),
      () => (settled = true),
    );
    while (!settled) {
      await Promise.race([pending, sleep(1)]);
      if (!settled) await frame(false);
    }
    return pending;
  };
  await open(cdp);
  await pumped(page.goto(`data:text/html,${encodeURIComponent(PAGE)}`));
  return {
    name: flush ? 'frames-flush' : 'frames',
    browser,
    profile,
    async step(x, y) {
      await frame(false);
      const reused = !drawnSinceImage && image !== '';
      if (!reused) {
        await frame(true);
        if (flush) {
          await frame(false);
          drawnSinceImage = false;
        }
      }
      const size = jpegSize(image);
      await click(cdp, x, y, pumped);
      return { size, reused };
    },
  };
}

/** CPU milliseconds of `root` and its descendants. */
function treeCpuMs(root: number): number {
  const field = (pid: number, index: number) =>
    Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[index]);
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      parents.set(Number(entry), field(Number(entry), 1));
    } catch {}
  }
  const pids = [root];
  for (let at = 0; at < pids.length; at++) {
    for (const [pid, parent] of parents) if (parent === pids[at]) pids.push(pid);
  }
  let ticks = 0;
  for (const pid of pids) {
    try {
      ticks += field(pid, 11) + field(pid, 12);
    } catch {}
  }
  return ticks * 10;
}

console.log(`frame control vs capture: ${rounds} steps each, 1280×800, DPR ${dpr}, JPEG q80`);
for (const { name, x, y } of CLICKS) {
  const sides = [await rawSide(), await frameSide(false), await frameSide(true)];
  try {
    for (let warm = 0; warm < 20; warm++) for (const side of sides) await side.step(x, y);
    const times = sides.map(() => [] as number[]);
    const reused = sides.map(() => 0);
    const sizes = sides.map(() => new Set<string>());
    const pid = (side: Side) => side.browser.process()?.pid ?? 0;
    const cpuBefore = sides.map((side) => treeCpuMs(pid(side)));
    for (let round = 0; round < rounds; round++) {
      for (const [index, side] of sides.entries()) {
        const started = performance.now();
        const result = await side.step(x, y);
        times[index]?.push(performance.now() - started);
        if (result.reused) reused[index] = (reused[index] ?? 0) + 1;
        sizes[index]?.add(result.size);
      }
    }
    const cpu = sides.map(
      (side, index) => (treeCpuMs(pid(side)) - (cpuBefore[index] ?? 0)) / rounds,
    );
    const floor = percentile(times[0] ?? [], 50);
    console.log(`\n${name}`);
    for (const [index, side] of sides.entries()) {
      const p50 = percentile(times[index] ?? [], 50);
      console.log(
        `  ${side.name.padEnd(13)} p50 ${p50.toFixed(2)} ms (${(p50 / floor).toFixed(2)}× raw)` +
          `  CPU/step ${cpu[index]?.toFixed(1)} ms  images reused ${reused[index]}/${rounds}` +
          `  size ${[...(sizes[index] ?? [])].join(',')}`,
      );
    }
  } finally {
    for (const side of sides) {
      await side.browser.close();
      await rm(side.profile, { recursive: true, force: true });
    }
  }
}
