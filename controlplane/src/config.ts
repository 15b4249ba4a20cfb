// The controlplane's only reader of the environment: CLAWDIE_* variables parsed once with zod.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { ConfigError } from './errors.js';

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

const schema = z.object({
  CLAWDIE_HOST: z.string().min(1).default('127.0.0.1'),
  CLAWDIE_PORT: int(0, 65535).default(8700),
  CLAWDIE_DATA_DIR: z.string().min(1).default('data'),
  CLAWDIE_LOG_LEVEL: z
    .enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'])
    .default('info'),
  CLAWDIE_MODEL_URL: z.url().optional(),
  CLAWDIE_MODEL_NAME: z.string().min(1).default('ui-tars-1.5-7b'),
  CLAWDIE_MODEL_API_KEY: z.string().min(1).optional(),
  CLAWDIE_MODEL_VERSION: z.enum(['1.5', '1.0']).default('1.5'),
  CLAWDIE_MODEL_TIMEOUT_MS: int(1000, 600_000).default(60_000),
  CLAWDIE_MODEL_RETRIES: int(0, 10).default(2),
  CLAWDIE_MODEL_MAX_TOKENS: int(16, 32_768).default(1024),
  CLAWDIE_MODEL_TEMPERATURE: z.coerce.number().min(0).max(2).default(0),
  CLAWDIE_MODEL_IMAGE_WINDOW: int(1, 50).default(5),
  CLAWDIE_MODEL_JPEG_QUALITY: int(30, 100).default(80),
  CLAWDIE_REPLAY_FILE: z.string().min(1).optional(),
  CLAWDIE_ACTION_SPACE: z.enum(['browser', 'computer']).default('browser'),
  CLAWDIE_MAX_STEPS: int(1, 500).default(30),
  CLAWDIE_MAX_PARSE_FAILURES: int(1, 20).default(3),
  CLAWDIE_WAIT_MS: int(0, 60_000).default(5000),
  CLAWDIE_SCROLL_AMOUNT: int(1, 10_000).default(500),
  CLAWDIE_JAIL_URL: z.url().optional(),
  CLAWDIE_JAIL_TOKEN: z.string().min(16).optional(),
});

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  databasePath: string;
  logLevel: z.infer<typeof schema>['CLAWDIE_LOG_LEVEL'];
  model: {
    url: string | null;
    name: string;
    apiKey: string | null;
    version: '1.5' | '1.0';
    timeoutMs: number;
    retries: number;
    maxTokens: number;
    temperature: number;
    imageWindow: number;
    jpegQuality: number;
    replayFile: string | null;
  };
  loop: {
    actionSpace: 'browser' | 'computer';
    maxSteps: number;
    maxParseFailures: number;
    waitMs: number;
    scrollAmount: number;
  };
  /** An already-running jail-service to drive; null means `npm start` launches a local one. */
  jail: { url: string; token: string } | null;
}

/** Reads `<NAME>_FILE` into `<NAME>` for secrets, so they need not sit in the environment. */
function withSecretFiles(
  env: Record<string, string | undefined>,
): Record<string, string | undefined> {
  const out = { ...env };
  for (const name of ['CLAWDIE_MODEL_API_KEY', 'CLAWDIE_JAIL_TOKEN']) {
    const file = env[`${name}_FILE`];
    if (file && !env[name]) {
      try {
        out[name] = readFileSync(file, 'utf8').trim();
      } catch (error) {
        throw new ConfigError(`${name}_FILE=${file} cannot be read: ${(error as Error).message}`);
      }
    }
  }
  return out;
}

/**
 * Parses the environment into a frozen Config. Pure apart from reading `*_FILE` secrets.
 * Throws ConfigError naming every bad variable.
 */
export function loadConfig(env: Record<string, string | undefined>, cwd = '.'): Readonly<Config> {
  const nonEmpty = Object.fromEntries(
    Object.entries(withSecretFiles(env)).filter(([, v]) => v !== ''),
  );
  const parsed = schema.safeParse(nonEmpty);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  if (Boolean(e.CLAWDIE_JAIL_URL) !== Boolean(e.CLAWDIE_JAIL_TOKEN)) {
    throw new ConfigError(
      'CLAWDIE_JAIL_URL and CLAWDIE_JAIL_TOKEN (or CLAWDIE_JAIL_TOKEN_FILE) must be set together',
    );
  }
  const dataDir = resolve(cwd, e.CLAWDIE_DATA_DIR);
  return Object.freeze({
    host: e.CLAWDIE_HOST,
    port: e.CLAWDIE_PORT,
    dataDir,
    databasePath: resolve(dataDir, 'clawdie.db'),
    logLevel: e.CLAWDIE_LOG_LEVEL,
    model: {
      url: e.CLAWDIE_MODEL_URL ?? null,
      name: e.CLAWDIE_MODEL_NAME,
      apiKey: e.CLAWDIE_MODEL_API_KEY ?? null,
      version: e.CLAWDIE_MODEL_VERSION,
      timeoutMs: e.CLAWDIE_MODEL_TIMEOUT_MS,
      retries: e.CLAWDIE_MODEL_RETRIES,
      maxTokens: e.CLAWDIE_MODEL_MAX_TOKENS,
      temperature: e.CLAWDIE_MODEL_TEMPERATURE,
      imageWindow: e.CLAWDIE_MODEL_IMAGE_WINDOW,
      jpegQuality: e.CLAWDIE_MODEL_JPEG_QUALITY,
      replayFile: e.CLAWDIE_REPLAY_FILE ? resolve(cwd, e.CLAWDIE_REPLAY_FILE) : null,
    },
    loop: {
      actionSpace: e.CLAWDIE_ACTION_SPACE,
      maxSteps: e.CLAWDIE_MAX_STEPS,
      maxParseFailures: e.CLAWDIE_MAX_PARSE_FAILURES,
      waitMs: e.CLAWDIE_WAIT_MS,
      scrollAmount: e.CLAWDIE_SCROLL_AMOUNT,
    },
    jail:
      e.CLAWDIE_JAIL_URL && e.CLAWDIE_JAIL_TOKEN
        ? { url: e.CLAWDIE_JAIL_URL, token: e.CLAWDIE_JAIL_TOKEN }
        : null,
  });
}

/** A copy of the process environment: the one sanctioned way for entry points to read it. */
export function processEnv(): Record<string, string | undefined> {
  return { ...process.env };
}
