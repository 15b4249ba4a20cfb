// The clone benches' same-run baseline: the same Chromium binary as the clones' (the headless
// shell when installed: jail-service/src/browser/chromium-binary.ts) with the jail-service's flags,
// launched bare by `puppeteer.launch` in this process (no clone, no sandbox, no jail-service),
// then its first screenshot — or a local page opened on it (the lifecycle bench's baseline).
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, rmdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';
import { CHROMIUM_FLAGS } from '../jail-service/src/browser/chromium-args.js';
import { chromiumBinary, FULL_CHROMIUM } from '../jail-service/src/browser/chromium-binary.js';

export { FULL_CHROMIUM };

/** The binary the clones' jail-service starts. */
export const CLONE_CHROMIUM = chromiumBinary({
  explicit: process.env.CLAWDIE_CHROMIUM_PATH,
  headless: true,
  exists: existsSync,
});

/**
 * One bare launch; the milliseconds from launch to its first screenshot answered (`pageUrl`
 * null: the cold clone's baseline), or to `pageUrl` loaded and the browser closed (the lifecycle
 * bench's baseline).
 */
export async function bareChromium(
  pageUrl: string | null,
  executablePath = CLONE_CHROMIUM,
): Promise<number> {
  const profile = await mkdtemp(join(tmpdir(), 'clawdie-bench-bare-'));
  const started = performance.now();
  const browser = await puppeteer.launch({
    executablePath,
    env: { PATH: '/usr/bin:/bin' },
    ignoreDefaultArgs: true,
    args: [...CHROMIUM_FLAGS, `--user-data-dir=${profile}`, 'about:blank'],
    pipe: true,
    defaultViewport: { width: 1280, height: 800 },
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  try {
    const [page] = await browser.pages();
    if (!page) throw new Error('bare Chromium opened no page');
    if (!pageUrl) {
      await page.screenshot({ type: 'jpeg', quality: 80, optimizeForSpeed: true });
      return performance.now() - started;
    }
    await page.goto(pageUrl, { waitUntil: 'load' });
    await browser.close();
    return performance.now() - started;
  } finally {
    if (browser.connected) await browser.close();
    await rm(profile, { recursive: true, force: true });
  }
}

/**
 * Runs `fn` with this process (and so the Chromium it launches) in a CPU cgroup beside the
 * clones' — the same parent group, the same weight and quota as a clone's — then moves it back.
 * On a shared host the clones' group competes as one entity with every other process: a bare
 * launch outside it gets a share per busy process, a clone one share in all.
 */
export async function inCloneLikeCgroup<T>(group: string, fn: () => Promise<T>): Promise<T> {
  const v2 = existsSync('/sys/fs/cgroup/cgroup.controllers');
  const root = v2 ? '/sys/fs/cgroup' : '/sys/fs/cgroup/cpu';
  const home = v2 ? /^0::(.*)$/m.exec(readFileSync('/proc/self/cgroup', 'utf8'))?.[1] : '/';
  const dir = join(root, group, 'bench-bare');
  await mkdir(dir, { recursive: true });
  if (v2) await writeFile(join(dir, 'cpu.max'), '200000 100000');
  else await writeFile(join(dir, 'cpu.cfs_quota_us'), '200000');
  await writeFile(join(dir, 'cgroup.procs'), String(process.pid));
  try {
    return await fn();
  } finally {
    await writeFile(join(root, home ?? '/', 'cgroup.procs'), String(process.pid));
    await rmdir(dir).catch(() => undefined);
  }
}
