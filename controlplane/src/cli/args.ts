import { parseArgs } from 'node:util';
import { AppError } from '../errors.js';
import { type BrowserRunTaskInput, browserRunTaskInputSchema } from '../tasks/task-input.js';

export const usage = `usage:
  clawdie run "<instruction>" [--start-url URL] [--max-steps N] [--timeout SECONDS] [--json]
  clawdie demo [--json]          run the bundled demo task with the replay model
  clawdie serve                  start the controlplane (what npm start runs)
  clawdie mcp                    serve browser_run_task over MCP on stdin/stdout
  clawdie help

environment: CLAWDIE_MODEL_URL, CLAWDIE_MODEL_NAME, CLAWDIE_MODEL_API_KEY, CLAWDIE_MODEL_VERSION,
CLAWDIE_JAIL_URL + CLAWDIE_JAIL_TOKEN, CLAWDIE_DATA_DIR, ... (see README)`;

export type Command =
  | { name: 'run'; input: BrowserRunTaskInput; json: boolean }
  | { name: 'demo'; json: boolean }
  | { name: 'serve' }
  | { name: 'mcp' }
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
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [name, ...rest] = positionals;
  if (values.help || name === undefined || name === 'help') return { name: 'help' };
  if (name === 'serve') return { name: 'serve' };
  if (name === 'mcp') return { name: 'mcp' };
  if (name === 'demo') return { name: 'demo', json: values.json };
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
  return { name: 'run', input: parsed.data, json: values.json };
}
