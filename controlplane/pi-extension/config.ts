// The pi extension's only reader of the environment: controlplane URL and token, from pi flags
// (`--clawdie-url`, `--clawdie-token`), then CLAWDIE_URL / CLAWDIE_TOKEN / CLAWDIE_TOKEN_FILE.
import { readFileSync } from 'node:fs';
import { ControlplaneError } from './errors.js';

/** Where the controlplane listens when nothing is configured (its CLAWDIE_HOST:CLAWDIE_PORT default). */
export const defaultControlplaneUrl = 'http://127.0.0.1:8700';

/** Resolved settings of one tool call. Never log or persist it whole: it holds the token. */
export interface ExtensionConfig {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:8700`. */
  readonly url: string;
  /** Sent as `Authorization: Bearer <token>` when set. */
  readonly token: string | null;
}

/** Values of the extension's pi flags (`pi.getFlag`), unset when not passed. */
export interface ConfigFlags {
  url?: string | undefined;
  token?: string | undefined;
}

/**
 * Merges defaults < environment < flags (empty strings count as unset). The token may come from
 * `CLAWDIE_TOKEN_FILE` (first line of the file). Pure apart from `readText`; throws
 * ControlplaneError `CONFIG_INVALID` naming the variable and the flag.
 */
export function loadConfig(
  env: Readonly<Record<string, string | undefined>>,
  flags: ConfigFlags = {},
  readText: (path: string) => string = (path) => readFileSync(path, 'utf8'),
): ExtensionConfig {
  const rawUrl = present(flags.url) ?? present(env.CLAWDIE_URL) ?? defaultControlplaneUrl;
  return Object.freeze({ url: parseUrl(rawUrl), token: resolveToken(env, flags, readText) });
}

/** {@link loadConfig} over the process environment; called lazily by each tool call. */
export function loadConfigFromProcess(flags: ConfigFlags): ExtensionConfig {
  return loadConfig(process.env, flags);
}

function parseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid(`the controlplane URL is not a valid URL (${raw})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalid(`the controlplane URL must be http:// or https:// (got ${raw})`);
  }
  return url.href.replace(/\/+$/, '');
}

function resolveToken(
  env: Readonly<Record<string, string | undefined>>,
  flags: ConfigFlags,
  readText: (path: string) => string,
): string | null {
  const direct = present(flags.token) ?? present(env.CLAWDIE_TOKEN);
  if (direct) return direct;
  const file = present(env.CLAWDIE_TOKEN_FILE);
  if (!file) return null;
  try {
    return present(readText(file).split(/\r?\n/)[0]) ?? null;
  } catch (error) {
    throw new ControlplaneError(
      'CONFIG_INVALID',
      `CLAWDIE_TOKEN_FILE ${file} cannot be read (${(error as Error).message}): fix the path, set CLAWDIE_TOKEN or pass --clawdie-token`,
    );
  }
}

function invalid(problem: string): ControlplaneError {
  return new ControlplaneError(
    'CONFIG_INVALID',
    `${problem}: set CLAWDIE_URL or pass --clawdie-url`,
  );
}

function present(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}
