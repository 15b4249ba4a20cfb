// Chromium's command line for the jail-service: headless, quiet, deterministic, proxy-only. No
// puppeteer here: main.ts starts Chromium from these before the rest of the service loads.

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

/** The whole argv after the executable (without the DevTools pipe flag), ending at about:blank. */
export function chromiumArgs(options: {
  headless?: boolean | undefined;
  sandbox: boolean;
  proxyUrl?: string | null | undefined;
  userDataDir: string | null;
}): string[] {
  const args = CHROMIUM_FLAGS.filter(
    (flag) =>
      (options.headless !== false || flag !== '--headless=new') &&
      (!options.sandbox || flag !== '--no-sandbox'),
  );
  args.push(...proxyFlags(options.proxyUrl ?? null));
  if (options.userDataDir) args.push(`--user-data-dir=${options.userDataDir}`);
  args.push('about:blank');
  return args;
}
