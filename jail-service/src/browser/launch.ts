// Adapter: launches Debian Chromium (or attaches to a running one) with puppeteer-core and picks
// the one page the jail-service drives. Its flags: chromium-args.ts.
import { rm } from 'node:fs/promises';
import type { Logger } from 'pino';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { BrowserUnavailableError } from '../errors.js';
import type { ChildProcess, EarlyChromium } from '../runner/early-chromium.js';
import { createTemporaryDir } from '../temporary-dirs.js';
import { pickAttachedPage } from './attach-target.js';
import { bounded } from './bounded.js';
import { chromiumArgs } from './chromium-args.js';
import { connectEarly } from './early-connect.js';

/** As puppeteer.launch's default timeout. */
const EARLY_TIMEOUT_MS = 30_000;

export interface BrowserOptions {
  chromiumPath: string;
  cdpUrl: string | null;
  /** Attached only: the tab to drive, by target id or URL prefix; null: the first page. */
  cdpTarget?: string | null;
  userDataDir: string | null;
  /**
   * Bound on any single CDP call, as a last resort behind the per-tool timeouts: a call that never
   * answers would otherwise hold puppeteer's screenshot lock for puppeteer's default 180 s.
   */
  protocolTimeoutMs: number;
  /** `http://host:port`: every request goes through this proxy and Chromium resolves no DNS. */
  proxyUrl?: string | null;
  /** False: headful on $DISPLAY. Default true. */
  headless?: boolean;
  /**
   * True: keep Chromium's own sandbox (drop --no-sandbox). `auto`: try with it, and fall back to
   * --no-sandbox with a warning when Chromium cannot start so (no nested user namespaces).
   * Default false.
   */
  sandbox?: boolean | 'auto';
  /** Chromium's whole environment; default PATH only (never this process's token). */
  env?: Readonly<Record<string, string>>;
  /** Chromium main.ts started already with these options (early-chromium.ts): connect to it. */
  early?: EarlyChromium | null;
}

export interface OpenedBrowser {
  browser: Browser;
  page: Page;
  /** True when this process launched the browser. */
  launched: boolean;
  /**
   * Launched: closes Chromium (SIGKILL if it does not exit in time), waits for it to exit and
   * deletes the temporary profile. Attached: disconnects only. Idempotent; never throws.
   */
  close(): Promise<void>;
}

/**
 * Launches Chromium over a pipe (it exits by itself when this process dies and the pipe closes)
 * or connects to `cdpUrl`. Without `userDataDir` the profile is a fresh temporary directory.
 * Throws BrowserUnavailableError.
 */
export async function openBrowser(options: BrowserOptions, logger: Logger): Promise<OpenedBrowser> {
  const log = logger.child({ module: 'browser' });
  const profile =
    options.cdpUrl || options.userDataDir ? null : await createTemporaryDir('profile');
  let browser: Browser;
  try {
    browser = options.cdpUrl ? await connect(options) : await launchAny(options, profile, log);
  } catch (error) {
    if (profile) await rm(profile, { recursive: true, force: true });
    throw error;
  }
  // Launched by puppeteer, else the early start's (a connected browser has no process).
  const child = browser.process() ?? options.early?.child ?? null;
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= options.cdpUrl ? disconnect(browser, log) : stop(browser, child, profile, log);
    return closing;
  };
  try {
    const page = await pickPage(browser, options);
    const spawnArgs = child?.spawnargs ?? [];
    log.info(
      {
        launched: !options.cdpUrl,
        pid: child?.pid ?? null,
        sandbox: options.cdpUrl ? null : !spawnArgs.includes('--no-sandbox'),
      },
      options.cdpUrl ? 'attached to chromium' : 'launched chromium',
    );
    return { browser, page, launched: !options.cdpUrl, close };
  } catch (error) {
    await close();
    if (error instanceof BrowserUnavailableError) throw error;
    throw new BrowserUnavailableError(`no usable page in the browser: ${message(error)}`, error);
  }
}

/** The tab CLAWDIE_JAIL_CDP_TARGET names when attached with one, else the first (or a new) page. */
async function pickPage(browser: Browser, options: BrowserOptions): Promise<Page> {
  if (options.cdpUrl && options.cdpTarget) return pickAttachedPage(browser, options.cdpTarget);
  const pages = await browser.pages();
  return pages[0] ?? (await browser.newPage());
}

async function disconnect(browser: Browser, logger: Logger): Promise<void> {
  await bounded(browser.disconnect(), logger, 'disconnect from chromium');
}

async function stop(
  browser: Browser,
  child: ChildProcess | null,
  profile: string | null,
  logger: Logger,
): Promise<void> {
  const exited =
    child && child.exitCode === null && child.signalCode === null
      ? new Promise<void>((resolve) => child.once('exit', () => resolve()))
      : Promise.resolve();
  await bounded(browser.close(), logger, 'close chromium');
  if (child && child.exitCode === null && child.signalCode === null) {
    logger.warn({ pid: child.pid }, 'chromium did not exit; killing it');
    child.kill('SIGKILL');
  }
  await bounded(exited, logger, 'wait for chromium to exit');
  if (profile) {
    await bounded(
      rm(profile, { recursive: true, force: true, maxRetries: 3 }),
      logger,
      'remove the temporary profile',
    );
  }
}

async function launchAny(
  options: BrowserOptions,
  profile: string | null,
  logger: Logger,
): Promise<Browser> {
  if (options.early) return launchEarly(options, options.early, profile, logger);
  if (options.sandbox !== 'auto') return launch(options, profile, options.sandbox === true);
  try {
    return await launch(options, profile, true);
  } catch (error) {
    logger.warn(
      { err: message(error) },
      'chromium cannot start with its own sandbox here; running it with --no-sandbox',
    );
    return launch(options, profile, false);
  }
}

/** Connects to the early start; with `auto`, falls back as below when its sandbox failed. */
async function launchEarly(
  options: BrowserOptions,
  early: EarlyChromium,
  profile: string | null,
  logger: Logger,
): Promise<Browser> {
  try {
    return await connectEarly(early, {
      protocolTimeoutMs: options.protocolTimeoutMs,
      timeoutMs: EARLY_TIMEOUT_MS,
    });
  } catch (error) {
    early.child.kill('SIGKILL');
    await early.exited;
    if (options.sandbox !== 'auto' || !early.sandbox) {
      throw new BrowserUnavailableError(
        `cannot launch chromium at ${options.chromiumPath}: ${message(error)}`,
        error,
      );
    }
    logger.warn(
      { err: message(error) },
      'chromium cannot start with its own sandbox here; running it with --no-sandbox',
    );
    return launch(options, profile, false);
  }
}

async function launch(
  options: BrowserOptions,
  profile: string | null,
  sandbox: boolean,
): Promise<Browser> {
  const args = chromiumArgs({ ...options, userDataDir: options.userDataDir ?? profile, sandbox });
  try {
    return await puppeteer.launch({
      executablePath: options.chromiumPath,
      // puppeteer passes its own process.env by default, bearer token included.
      env: { ...(options.env ?? { PATH: '/usr/bin:/bin' }) },
      // Our flags only: puppeteer's defaults include --enable-automation and other surprises.
      ignoreDefaultArgs: true,
      args,
      pipe: true,
      defaultViewport: null,
      // main.ts owns the signals and closes the browser itself.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
      downloadBehavior: { policy: 'deny' },
      protocolTimeout: options.protocolTimeoutMs,
    });
  } catch (error) {
    throw new BrowserUnavailableError(
      `cannot launch chromium at ${options.chromiumPath}: ${message(error)}`,
      error,
    );
  }
}

async function connect(options: BrowserOptions): Promise<Browser> {
  const cdpUrl = options.cdpUrl ?? '';
  const endpoint = /^wss?:/i.test(cdpUrl) ? { browserWSEndpoint: cdpUrl } : { browserURL: cdpUrl };
  try {
    return await puppeteer.connect({
      ...endpoint,
      defaultViewport: null,
      protocolTimeout: options.protocolTimeoutMs,
    });
  } catch (error) {
    throw new BrowserUnavailableError(`cannot attach to ${cdpUrl}: ${message(error)}`, error);
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
