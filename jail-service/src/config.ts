// The jail-service's only reader of the environment: CLAWDIE_* variables parsed once with zod.
import { existsSync, readFileSync } from 'node:fs';
import { IMAGE_ENCODER_MODES, type ImageEncoderMode } from '@clawdie/kit/images';
import { z } from 'zod';
import { chromiumBinary } from './browser/chromium-binary.js';
import { ConfigError } from './errors.js';

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

const viewport = z
  .string()
  .regex(/^\d+x\d+$/i, 'must look like 1280x800 (width x height in CSS pixels)')
  .transform((value) => {
    const [width, height] = value.toLowerCase().split('x').map(Number) as [number, number];
    return { width, height };
  })
  .refine(
    ({ width, height }) => width >= 100 && width <= 8192 && height >= 100 && height <= 8192,
    'width and height must each be between 100 and 8192',
  );

const schema = z.object({
  CLAWDIE_JAIL_TOKEN: z.string().min(1, 'must not be empty').optional(),
  CLAWDIE_JAIL_HOST: z.string().min(1).default('127.0.0.1'),
  CLAWDIE_JAIL_PORT: int(0, 65_535).default(0),
  /** Default: the headless shell when headless and installed, else /usr/bin/chromium. */
  CLAWDIE_CHROMIUM_PATH: z.string().min(1).optional(),
  CLAWDIE_JAIL_CDP_URL: z
    .string()
    .regex(/^(https?|wss?):\/\/\S+$/i, 'must be an http://, https://, ws:// or wss:// URL')
    .optional(),
  /** Attached only: the tab to drive, by DevTools target id or URL prefix (default: the first). */
  CLAWDIE_JAIL_CDP_TARGET: z.string().trim().min(1).optional(),
  CLAWDIE_JAIL_VIEWPORT: viewport.default({ width: 1280, height: 800 }),
  CLAWDIE_JAIL_DEVICE_SCALE_FACTOR: z.coerce.number().positive().max(4).default(1),
  CLAWDIE_JAIL_SCREENSHOT_QUALITY: int(1, 100).default(80),
  CLAWDIE_JAIL_ACTION_TIMEOUT_MS: int(100, 600_000).default(15_000),
  CLAWDIE_JAIL_NAVIGATION_TIMEOUT_MS: int(100, 600_000).default(15_000),
  CLAWDIE_JAIL_USER_DATA_DIR: z.string().min(1).optional(),
  /** Where per-task download directories are made; default a fresh temporary directory. */
  CLAWDIE_JAIL_DOWNLOAD_DIR: z.string().min(1).optional(),
  /** Where per-task upload directories are made; default a fresh temporary directory. */
  CLAWDIE_JAIL_UPLOAD_DIR: z.string().min(1).optional(),
  CLAWDIE_JAIL_START_URL: z.string().min(1).default('about:blank'),
  CLAWDIE_JAIL_PROXY: z
    .string()
    .regex(/^http:\/\/[^\s/:]+:\d+$/, 'must look like http://10.78.0.29:3128')
    .optional(),
  CLAWDIE_JAIL_HEADLESS: z.enum(['true', 'false']).default('true'),
  /** True: Chromium keeps its own sandbox (needs a non-root uid and user namespaces). */
  CLAWDIE_JAIL_CHROMIUM_SANDBOX: z.enum(['true', 'false', 'auto']).default('false'),
  /** True: also serve the X display in $DISPLAY as the desktop surface under /desktop. */
  CLAWDIE_JAIL_DESKTOP: z.enum(['true', 'false']).default('false'),
  /**
   * True: stdin is a pipe from the parent (the controlplane's local jail-service); EOF means the
   * parent died, and the service closes Chromium and exits.
   */
  CLAWDIE_JAIL_STOP_WITH_PARENT: z.enum(['true', 'false']).default('false'),
  /** Off: `POST /actions` reports no network evidence (only to measure what recording costs). */
  CLAWDIE_JAIL_EVIDENCE: z.enum(['on', 'off']).default('on'),
  /** Desktop screenshots' JPEG encoder: sharp when it loads (auto), sharp or fail, or pure JS. */
  CLAWDIE_IMAGE_ENCODER: z.enum(IMAGE_ENCODER_MODES).default('auto'),
  CLAWDIE_LOG_LEVEL: z
    .enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'])
    .default('info'),
});

/** Every variable the jail-service reads: what a parent passes on to it (an allowlist). */
export const JAIL_SERVICE_VARIABLES: readonly string[] = Object.freeze(Object.keys(schema.shape));

/**
 * What Chromium may see of the jail-service's environment: no CLAWDIE_* variable (the bearer
 * token), only what a browser needs to find its home, temporary files, locale and display.
 */
const CHROMIUM_VARIABLES = ['HOME', 'TMPDIR', 'LANG', 'LC_ALL', 'TZ', 'DISPLAY', 'XAUTHORITY'];

export type LogLevel = z.infer<typeof schema>['CLAWDIE_LOG_LEVEL'];

/** The parsed, frozen configuration of one jail-service. */
export interface JailConfig {
  /** Bearer token every request must present. Never log it. */
  token: string;
  host: string;
  /** 0 picks an ephemeral port. */
  port: number;
  chromiumPath: string;
  /** Attach to this browser (http:// → browserURL, ws:// → WebSocket endpoint) instead of launching. */
  cdpUrl: string | null;
  /**
   * With `cdpUrl`: drive the tab whose DevTools target id equals this, or else the first whose URL
   * starts with it; start-up fails naming the open tabs when none matches. Null: the first page.
   */
  cdpTarget: string | null;
  viewport: { width: number; height: number };
  deviceScaleFactor: number;
  screenshotQuality: number;
  actionTimeoutMs: number;
  navigationTimeoutMs: number;
  /** A fresh temporary profile (removed on close) when null. */
  userDataDir: string | null;
  /** Parent of the per-task download directories; a fresh temporary one (removed on close) when null. */
  downloadDir: string | null;
  /** Parent of the per-task upload directories; a fresh temporary one (removed on close) when null. */
  uploadDir: string | null;
  startUrl: string;
  logLevel: LogLevel;
  /** hostd's egress proxy for this clone: all browser traffic goes through it, no local DNS. */
  proxyUrl: string | null;
  /** False: headful Chromium on $DISPLAY (a clone's own Xvfb). */
  headless: boolean;
  /**
   * False: Chromium runs with --no-sandbox (as root, or without user namespaces); `auto`: with
   * its sandbox when it can start so, else without (a clone, where nesting may be refused).
   */
  chromiumSandbox: boolean | 'auto';
  /** Chromium's whole environment (an allowlist of this process's; never the token). */
  chromiumEnv: Readonly<Record<string, string>>;
  /** The X display (`:NN`) served as the desktop surface under /desktop; null: none. */
  desktopDisplay: string | null;
  /** CLAWDIE_IMAGE_ENCODER (default auto). */
  imageEncoder: ImageEncoderMode;
  /** Stop (closing Chromium) when stdin reaches EOF: the parent that holds it open is gone. */
  stopWithParent: boolean;
  /** Record each batch's requests as evidence (CLAWDIE_JAIL_EVIDENCE, default on). */
  evidence: boolean;
}

export type Environment = Readonly<Record<string, string | undefined>>;

export interface LoadConfigOptions {
  /** Reads `CLAWDIE_JAIL_TOKEN_FILE`; injectable so tests need no files. */
  readFile?: (path: string) => string;
  /** Whether the headless shell is installed; injectable so tests decide. */
  exists?: (path: string) => boolean;
}

/**
 * Parses the environment into a frozen JailConfig. Pure apart from reading the token file and
 * looking for the headless shell.
 * Empty variables count as unset. Throws ConfigError naming every bad variable.
 */
export function loadConfig(
  env: Environment,
  options: LoadConfigOptions = {},
): Readonly<JailConfig> {
  const present = Object.fromEntries(
    Object.entries(env).filter(([name, value]) => name.startsWith('CLAWDIE_') && value !== ''),
  );
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`invalid jail-service configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  if (e.CLAWDIE_JAIL_CDP_TARGET && !e.CLAWDIE_JAIL_CDP_URL) {
    throw new ConfigError(
      'invalid jail-service configuration:\n  CLAWDIE_JAIL_CDP_TARGET: needs CLAWDIE_JAIL_CDP_URL (it picks a tab of an attached browser)',
    );
  }
  const token = e.CLAWDIE_JAIL_TOKEN ?? readTokenFile(present.CLAWDIE_JAIL_TOKEN_FILE, options);
  return Object.freeze({
    token,
    host: e.CLAWDIE_JAIL_HOST,
    port: e.CLAWDIE_JAIL_PORT,
    chromiumPath: chromiumBinary({
      explicit: e.CLAWDIE_CHROMIUM_PATH,
      headless: e.CLAWDIE_JAIL_HEADLESS === 'true',
      exists: options.exists ?? existsSync,
    }),
    cdpUrl: e.CLAWDIE_JAIL_CDP_URL ?? null,
    cdpTarget: e.CLAWDIE_JAIL_CDP_TARGET ?? null,
    viewport: Object.freeze(e.CLAWDIE_JAIL_VIEWPORT),
    deviceScaleFactor: e.CLAWDIE_JAIL_DEVICE_SCALE_FACTOR,
    screenshotQuality: e.CLAWDIE_JAIL_SCREENSHOT_QUALITY,
    actionTimeoutMs: e.CLAWDIE_JAIL_ACTION_TIMEOUT_MS,
    navigationTimeoutMs: e.CLAWDIE_JAIL_NAVIGATION_TIMEOUT_MS,
    userDataDir: e.CLAWDIE_JAIL_USER_DATA_DIR ?? null,
    downloadDir: e.CLAWDIE_JAIL_DOWNLOAD_DIR ?? null,
    uploadDir: e.CLAWDIE_JAIL_UPLOAD_DIR ?? null,
    startUrl: e.CLAWDIE_JAIL_START_URL,
    logLevel: e.CLAWDIE_LOG_LEVEL,
    proxyUrl: e.CLAWDIE_JAIL_PROXY ?? null,
    headless: e.CLAWDIE_JAIL_HEADLESS === 'true',
    chromiumSandbox:
      e.CLAWDIE_JAIL_CHROMIUM_SANDBOX === 'auto'
        ? 'auto'
        : e.CLAWDIE_JAIL_CHROMIUM_SANDBOX === 'true',
    chromiumEnv: Object.freeze(chromiumEnvironment(env)),
    desktopDisplay: e.CLAWDIE_JAIL_DESKTOP === 'true' ? desktopDisplay(env.DISPLAY) : null,
    imageEncoder: e.CLAWDIE_IMAGE_ENCODER,
    stopWithParent: e.CLAWDIE_JAIL_STOP_WITH_PARENT === 'true',
    evidence: e.CLAWDIE_JAIL_EVIDENCE === 'on',
  });
}

function desktopDisplay(display: string | undefined): string {
  if (display && /^:\d+(\.\d+)?$/.test(display)) return display;
  throw new ConfigError(
    `CLAWDIE_JAIL_DESKTOP=true needs DISPLAY set to a local X display such as :42 (got ${display ? JSON.stringify(display) : 'nothing'})`,
  );
}

function chromiumEnvironment(env: Environment): Record<string, string> {
  const picked: Record<string, string> = { PATH: env.PATH || '/usr/bin:/bin' };
  for (const name of CHROMIUM_VARIABLES) {
    const value = env[name];
    if (value) picked[name] = value;
  }
  return picked;
}

function readTokenFile(file: string | undefined, options: LoadConfigOptions): string {
  if (file === undefined) {
    throw new ConfigError(
      'CLAWDIE_JAIL_TOKEN is missing: set CLAWDIE_JAIL_TOKEN or CLAWDIE_JAIL_TOKEN_FILE (a file holding the bearer token)',
    );
  }
  const read = options.readFile ?? ((path: string) => readFileSync(path, 'utf8'));
  let content: string;
  try {
    content = read(file);
  } catch (error) {
    throw new ConfigError(
      `CLAWDIE_JAIL_TOKEN_FILE=${file} cannot be read: ${(error as Error).message}`,
    );
  }
  const token = content.trim();
  if (token === '') throw new ConfigError(`CLAWDIE_JAIL_TOKEN_FILE=${file} is empty`);
  return token;
}

/** A copy of the process environment: the one sanctioned way for `main.ts` to read it. */
export function processEnvironment(): Environment {
  return { ...process.env };
}
