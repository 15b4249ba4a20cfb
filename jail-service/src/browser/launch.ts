// Adapter: launches Debian Chromium (or attaches to a running one) with puppeteer-core and picks
// the one page the jail-service drives.
import { rm } from 'node:fs/promises';
import type { Logger } from 'pino';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { BrowserUnavailableError } from '../errors.js';
import { pickAttachedPage } from './attach-target.js';
import { bounded } from './bounded.js';
import { createTemporaryProfile } from './temporary-profile.js';

/** An address no request can reach: Chromium refuses port 0 before connecting or proxying. */
const NOWHERE = 'http://127.0.0.1:0/';

/**
 * Chromium features a headless clone never uses. PSS figures: per clone, 4 clones at once
 * (docs/performance.md "Memory per clone (PSS)").
 */
const DISABLED_FEATURES: readonly string[] = [
  // Quiet: no calls home, no prompts.
  'Translate',
  'MediaRouter',
  'OptimizationHints',
  'AcceptCHFrame',
  'NetworkTimeServiceQuerying',
  'AutofillServerCommunication',
  'CertificateTransparencyComponentUpdater',
  'InterestFeedContentSuggestions',
  // Deterministic history navigation: back/forward reload the page.
  'BackForwardCache',
  // The omnibox's WebUI popups (classic and AI mode): headless has no omnibox, yet Chromium 156
  // preloads both into a renderer of their own at start. Saves ≈ 45 MiB.
  'WebUIOmniboxPopup',
  'WebUIOmniboxAimPopup',
  // No idle renderer kept warm for the next site: a navigation to a new site starts its process
  // then (site isolation unchanged). Saves ≈ 7 MiB.
  'SpareRendererForSitePerProcess',
];

/** Flags for a headless, quiet, deterministic browser (house-style §3.8 plus input/timer fixes). */
export const CHROMIUM_FLAGS: readonly string[] = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-smooth-scrolling',
  '--hide-scrollbars',
  '--mute-audio',
  '--disable-dev-shm-usage',
  // A busy renderer must stay alive for Runtime.terminateExecution to rescue it.
  '--disable-hang-monitor',
  '--disable-background-timer-throttling',
  '--disable-backgrounding-occluded-windows',
  '--disable-renderer-backgrounding',
  '--disable-ipc-flooding-protection',
  '--allow-pre-commit-input',
  '--disable-breakpad',
  '--disable-crash-reporter',
  '--disable-client-side-phishing-detection',
  '--disable-default-apps',
  '--disable-extensions',
  '--disable-prompt-on-repost',
  '--disable-search-engine-choice-screen',
  '--metrics-recording-only',
  '--password-store=basic',
  '--use-mock-keychain',
  '--force-color-profile=srgb',
  '--disable-component-extensions-with-background-pages',
  '--disable-domain-reliability',
  '--disable-field-trial-config',
  '--disable-spell-checking',
  '--no-pings',
  `--disable-features=${DISABLED_FEATURES.join(',')}`,
  // Debian's Chromium still fetches components on demand (the on-device model manifest) despite
  // --disable-component-update, and asks Google's account servers for cookies at start: point
  // each service at an invalid address (port 0), which Chromium refuses before any connection.
  ...[
    'component-updater=url-source',
    'gaia-url',
    'google-apis-url',
    'lso-url',
    'oauth-account-manager-url',
  ].map((name) => `--${name}=${NOWHERE}`),
];

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
  const profile = options.cdpUrl || options.userDataDir ? null : await createTemporaryProfile();
  let browser: Browser;
  try {
    browser = options.cdpUrl ? await connect(options) : await launchAny(options, profile, log);
  } catch (error) {
    if (profile) await rm(profile, { recursive: true, force: true });
    throw error;
  }
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= options.cdpUrl ? disconnect(browser, log) : stop(browser, profile, log);
    return closing;
  };
  try {
    const page = await pickPage(browser, options);
    const spawnArgs = browser.process()?.spawnargs ?? [];
    log.info(
      {
        launched: !options.cdpUrl,
        pid: browser.process()?.pid ?? null,
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

async function stop(browser: Browser, profile: string | null, logger: Logger): Promise<void> {
  const child = browser.process();
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

async function launch(
  options: BrowserOptions,
  profile: string | null,
  sandbox: boolean,
): Promise<Browser> {
  const args = CHROMIUM_FLAGS.filter(
    (flag) =>
      (options.headless !== false || flag !== '--headless=new') &&
      (!sandbox || flag !== '--no-sandbox'),
  );
  args.push(...proxyFlags(options.proxyUrl ?? null));
  const userDataDir = options.userDataDir ?? profile;
  if (userDataDir) args.push(`--user-data-dir=${userDataDir}`);
  args.push('about:blank');
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

/** Proxy-only networking (freebsd-jails.md §2.6): without EXCLUDE the proxy itself is unreachable. */
export function proxyFlags(proxyUrl: string | null): string[] {
  if (!proxyUrl) return [];
  const host = new URL(proxyUrl).hostname;
  return [
    `--proxy-server=${proxyUrl}`,
    '--proxy-bypass-list=<-loopback>',
    `--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE ${host}`,
    // WebRTC may not send UDP (a STUN request to any host:port) around the proxy. Chromium 156
    // honours only `--webrtc-ip-handling-policy` (measured: with the `--force-` spelling alone a
    // page's RTCPeerConnection still sent 4 STUN datagrams); older builds read the `--force-` one.
    '--webrtc-ip-handling-policy=disable_non_proxied_udp',
    '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  ];
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
