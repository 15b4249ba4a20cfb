// Chromium's CPU per screenshot, per click and while idle, by process type: the jail-service's own
// launch flags and capture options (page-driver.ts) on the demo shop at 1280×800, plus whatever
// flags or capture options a variant adds. CPU comes from /proc/<pid>/stat of the browser's process
// tree (10 ms ticks: use --n ≥ 40), so other work on the host moves wall times, not CPU.
// Usage: npm run bench:capture [-- --n=60 --quality=80 --dpr=1 --extra='--in-process-gpu' --no-surface --clip]
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import puppeteer from 'puppeteer-core';
import { startDemoSite } from '../controlplane/src/platform/demo/demo-site-server.js';
import { CHROMIUM_FLAGS } from '../jail-service/src/browser/chromium-args.js';

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '60' },
    quality: { type: 'string', default: '80' },
    /** Extra Chromium flags, space-separated. */
    extra: { type: 'string', default: '' },
    /** Capture with `fromSurface: false` (the jail-service uses true). */
    'no-surface': { type: 'boolean', default: false },
    /** Capture with an explicit clip of the viewport (the jail-service passes none). */
    clip: { type: 'boolean', default: false },
    dpr: { type: 'string', default: '1' },
    chromium: { type: 'string', default: process.env.CLAWDIE_CHROMIUM_PATH || '/usr/bin/chromium' },
  },
});
const rounds = Number(values.n);
const extra = values.extra.split(' ').filter(Boolean);

const site = await startDemoSite();
const profile = await mkdtemp(join(tmpdir(), 'bench-capture-'));
const browser = await puppeteer.launch({
  executablePath: values.chromium,
  ignoreDefaultArgs: true,
  pipe: true,
  defaultViewport: null,
  args: [...CHROMIUM_FLAGS, ...extra, `--user-data-dir=${profile}`, 'about:blank'],
});
const root = browser.process()?.pid;
if (root === undefined) throw new Error('no browser process');
const page = (await browser.pages())[0] ?? (await browser.newPage());
await page.setViewport({ width: 1280, height: 800, deviceScaleFactor: Number(values.dpr) });
await page.goto(`${site.url}/`);

/** Field `index` (0-based, after the parenthesised name) of /proc/<pid>/stat. */
function statField(pid: number, index: number): number {
  return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[index]);
}

/** The browser and every descendant, by parent pid. */
function tree(): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      parents.set(Number(entry), statField(Number(entry), 1));
    } catch {}
  }
  const found = [root as number];
  for (let grown = true; grown; ) {
    grown = false;
    for (const [pid, parent] of parents) {
      if (found.includes(parent) && !found.includes(pid)) {
        found.push(pid);
        grown = true;
      }
    }
  }
  return found;
}

/** CPU ms (user + system) of the tree by `--type=` (the browser: `browser`). */
function cpuByKind(): Record<string, number> {
  const kinds: Record<string, number> = {};
  for (const pid of tree()) {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/);
      const kind = argv.find((arg) => arg.startsWith('--type='))?.slice(7) ?? 'browser';
      kinds[kind] = (kinds[kind] ?? 0) + (statField(pid, 11) + statField(pid, 12)) * 10;
    } catch {}
  }
  return kinds;
}

const shot = () =>
  page.screenshot({
    type: 'jpeg',
    quality: Number(values.quality),
    fromSurface: !values['no-surface'],
    captureBeyondViewport: false,
    optimizeForSpeed: true,
    ...(values.clip ? { clip: { x: 0, y: 0, width: 1280, height: 800 } } : {}),
  });
const click = () => page.mouse.click(640, 700);
const idle = () => new Promise<void>((resolve) => setTimeout(resolve, 100));

async function measure(label: string, operation: () => Promise<unknown>): Promise<void> {
  for (let i = 0; i < 3; i += 1) await operation();
  const before = cpuByKind();
  const started = performance.now();
  let bytes = 0;
  for (let i = 0; i < rounds; i += 1) {
    const result = await operation();
    if (result instanceof Uint8Array) bytes += result.length;
  }
  const wall = (performance.now() - started) / rounds;
  const after = cpuByKind();
  const per = Object.entries(after)
    .map(([kind, ms]) => [kind, (ms - (before[kind] ?? 0)) / rounds] as const)
    .filter(([, ms]) => ms >= 0.05)
    .sort(([, a], [, b]) => b - a);
  const total = per.reduce((sum, [, ms]) => sum + ms, 0);
  const kinds = per.map(([kind, ms]) => `${kind} ${ms.toFixed(1)}`).join(', ');
  const size = bytes > 0 ? `, ${(bytes / rounds / 1024).toFixed(0)} KiB` : '';
  console.log(
    `${label.padEnd(12)} wall ${wall.toFixed(1)} ms, CPU ${total.toFixed(1)} ms (${kinds})${size}`,
  );
}

console.log(
  `flags: jail-service's + [${extra.join(' ')}], quality ${values.quality}, DPR ${values.dpr}${values.clip ? ', clip' : ''}, n=${rounds}`,
);
await measure('idle 100 ms', idle);
await measure('screenshot', shot);
await measure('click', click);
await measure('step', async () => {
  await shot();
  await click();
});
await browser.close();
await rm(profile, { recursive: true, force: true });
await site.close();
