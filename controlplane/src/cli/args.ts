import { parseArgs } from 'node:util';
import { AppError } from '../errors.js';
import { type BrowserRunTaskInput, browserRunTaskInputSchema } from '../tasks/task-input.js';

export const usage = `usage:
  clawdie run "<instruction>" [--start-url URL] [--max-steps N] [--timeout SECONDS]
              [--tenant T] [--json]   run one task under tenant T's policy (default: default)
  clawdie demo [--json]          run the bundled demo task with the replay model
  clawdie serve                  start the controlplane (what npm start runs)
  clawdie mcp                    serve browser_run_task over MCP on stdin/stdout
  clawdie audit verify [--json]  check the audit log's hash chain; names the first bad row
  clawdie keys rotate [--keep N] add a new token-signing key to the JWKS file (keeps the last N)
  clawdie token create --tenant T --scope S [--scope S ...] [--ttl SECONDS] [--subject NAME]
  clawdie secret set NAME --tenant T   store a secret read from stdin (AES-256-GCM)
  clawdie session list [--tenant T]    saved session profiles (metadata only, never values)
  clawdie session save --task ID --name N --origin O [--origin O ...] [--ttl SECONDS]
                                 save a running task's browser session (needs the server)
  clawdie session revoke NAME [--tenant T]   revoke a profile and wipe its data
  clawdie backup DEST [--data-dir DIR]   copy the data dir into the new directory DEST
                                 (safe while the server runs)
  clawdie restore BACKUP [--data-dir DIR]   restore a backup into an absent or empty data dir
  clawdie help

environment: CLAWDIE_MODEL_URL, CLAWDIE_MODEL_NAME, CLAWDIE_MODEL_API_KEY, CLAWDIE_MODEL_VERSION,
CLAWDIE_JAIL_URL + CLAWDIE_JAIL_TOKEN, CLAWDIE_DATA_DIR, ... (see README)`;

export type Command =
  | { name: 'run'; input: BrowserRunTaskInput; tenant: string | undefined; json: boolean }
  | { name: 'demo'; json: boolean }
  | { name: 'serve' }
  | { name: 'mcp' }
  | { name: 'audit-verify'; json: boolean }
  | { name: 'keys-rotate'; keep: number }
  | { name: 'token-create'; tenant: string; scopes: string[]; ttlSeconds: number; subject: string }
  | { name: 'secret-set'; secret: string; tenant: string }
  | { name: 'session-list'; tenant: string | undefined }
  | {
      name: 'session-save';
      taskId: string;
      session: string;
      origins: string[];
      ttlS: number | undefined;
      tenant?: undefined;
    }
  | { name: 'session-revoke'; session: string; tenant: string | undefined }
  | { name: 'backup'; destination: string; dataDir: string | undefined }
  | { name: 'restore'; source: string; dataDir: string | undefined }
  | { name: 'help' };

/** Parses CLI arguments; throws AppError `USAGE` with a message naming the bad argument. */
export function parseCommand(argv: string[]): Command {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      'start-url': { type: 'string' },
      'max-steps': { type: 'string' },
      timeout: { type: 'string' },
      json: { type: 'boolean', default: false },
      tenant: { type: 'string' },
      scope: { type: 'string', multiple: true },
      ttl: { type: 'string' },
      subject: { type: 'string' },
      keep: { type: 'string' },
      task: { type: 'string' },
      name: { type: 'string' },
      origin: { type: 'string', multiple: true },
      'data-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [name, ...rest] = positionals;
  if (values.help || name === undefined || name === 'help') return { name: 'help' };
  if (name === 'serve') return { name: 'serve' };
  if (name === 'mcp') return { name: 'mcp' };
  if (name === 'demo') return { name: 'demo', json: values.json };
  if (name === 'backup' || name === 'restore') return parseBackupCommand(name, rest, values);
  const admin = parseAdminCommand(name, rest, values);
  if (admin) return admin;
  if (name === 'session') return parseSessionCommand(rest, values);
  if (name !== 'run') throw new AppError('USAGE', `unknown command "${name}"`);
  const parsed = browserRunTaskInputSchema.safeParse({
    instruction: rest.join(' '),
    ...(values['start-url'] !== undefined ? { start_url: values['start-url'] } : {}),
    ...(values['max-steps'] !== undefined ? { max_steps: Number(values['max-steps']) } : {}),
    ...(values.timeout !== undefined ? { timeout_s: Number(values.timeout) } : {}),
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const flag = {
      instruction: '<instruction>',
      start_url: '--start-url',
      max_steps: '--max-steps',
      timeout_s: '--timeout',
    }[String(issue?.path[0]) as 'instruction'];
    throw new AppError('USAGE', `${flag ?? 'argument'}: ${issue?.message ?? 'invalid'}`);
  }
  if (values.tenant === '') throw new AppError('USAGE', '--tenant: must not be empty');
  return { name: 'run', input: parsed.data, tenant: values.tenant, json: values.json };
}

interface AdminValues {
  json: boolean;
  tenant?: string | undefined;
  scope?: string[] | undefined;
  ttl?: string | undefined;
  subject?: string | undefined;
  keep?: string | undefined;
}

const positiveInt = (flag: string, raw: string | undefined, fallback: number): number => {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw new AppError('USAGE', `${flag}: must be a positive integer`);
  return value;
};

/** `audit verify`, `keys rotate`, `token create`, `secret set`; null for other commands. */
function parseAdminCommand(name: string, rest: string[], values: AdminValues): Command | null {
  const sub = `${name} ${rest[0] ?? ''}`.trim();
  if (sub === 'audit verify') return { name: 'audit-verify', json: values.json };
  if (sub === 'keys rotate')
    return { name: 'keys-rotate', keep: positiveInt('--keep', values.keep, 3) };
  if (sub === 'token create') {
    if (!values.tenant) throw new AppError('USAGE', '--tenant: required');
    if (!values.scope?.length) throw new AppError('USAGE', '--scope: at least one is required');
    return {
      name: 'token-create',
      tenant: values.tenant,
      scopes: values.scope,
      ttlSeconds: positiveInt('--ttl', values.ttl, 3600),
      subject: values.subject ?? values.tenant,
    };
  }
  if (sub === 'secret set') {
    const secret = rest[1];
    if (!secret || !/^[A-Za-z0-9_.-]+$/.test(secret))
      throw new AppError('USAGE', 'secret set: NAME (letters, digits, _ . -) is required');
    if (!values.tenant) throw new AppError('USAGE', '--tenant: required');
    return { name: 'secret-set', secret, tenant: values.tenant };
  }
  if (['audit', 'keys', 'token', 'secret'].includes(name)) {
    throw new AppError('USAGE', `unknown subcommand "${sub}"`);
  }
  return null;
}

/** `session list|save|revoke`. */
function parseSessionCommand(
  rest: string[],
  values: AdminValues & {
    task?: string | undefined;
    name?: string | undefined;
    origin?: string[] | undefined;
  },
): Command {
  const [sub, session] = rest;
  if (sub === 'list') return { name: 'session-list', tenant: values.tenant };
  if (sub === 'revoke') {
    if (!session) throw new AppError('USAGE', 'session revoke: NAME is required');
    return { name: 'session-revoke', session, tenant: values.tenant };
  }
  if (sub === 'save') {
    if (!values.task) throw new AppError('USAGE', '--task: required');
    if (!values.name) throw new AppError('USAGE', '--name: required');
    if (!values.origin?.length) throw new AppError('USAGE', '--origin: at least one is required');
    return {
      name: 'session-save',
      taskId: values.task,
      session: values.name,
      origins: values.origin,
      ttlS: values.ttl === undefined ? undefined : positiveInt('--ttl', values.ttl, 0),
    };
  }
  throw new AppError('USAGE', `unknown subcommand "session ${sub ?? ''}"`);
}

/** `backup DEST` and `restore BACKUP`, each with an optional `--data-dir`. */
function parseBackupCommand(
  name: 'backup' | 'restore',
  rest: string[],
  values: { 'data-dir'?: string | undefined },
): Command {
  const [path, ...extra] = rest;
  const what = name === 'backup' ? 'DEST' : 'BACKUP';
  if (!path || extra.length > 0)
    throw new AppError('USAGE', `${name}: exactly one ${what} directory is required`);
  if (values['data-dir'] === '') throw new AppError('USAGE', '--data-dir: must not be empty');
  const dataDir = values['data-dir'];
  return name === 'backup' ? { name, destination: path, dataDir } : { name, source: path, dataDir };
}
