// `clawdie run`, `demo`, `serve` and `mcp`: the commands that run tasks.
import { AppError } from '../../../errors.js';
import { browserRunTaskInputSchema } from '../../../tasks/task-input.js';
import { browserRunTaskFields } from '../../../tasks/task-input-fields.js';
import { defineCommand } from '../command-spec.js';

const json = {
  type: 'boolean',
  description: 'only the JSON result on stdout, no progress on stderr',
} as const;

/** A task input field's own description, as a usage line: `page to open before the first step`. */
const described = (field: 'start_url' | 'max_steps' | 'timeout_s') => {
  const text = browserRunTaskFields[field].description ?? '';
  return text.charAt(0).toLowerCase() + text.slice(1).replace(/\.$/, '');
};

/** Which argument a field of the task input came from, to name it in an error. */
const argumentOf: Record<string, string> = {
  instruction: 'INSTRUCTION',
  start_url: '--start-url',
  max_steps: '--max-steps',
  timeout_s: '--timeout',
  domains: '--domains',
};

const run = defineCommand({
  words: ['run'],
  positionals: [{ name: 'INSTRUCTION', rest: true }],
  flags: {
    'start-url': {
      type: 'string',
      value: 'URL',
      description: described('start_url'),
    },
    'max-steps': {
      type: 'integer',
      value: 'N',
      description: described('max_steps'),
    },
    timeout: {
      type: 'integer',
      value: 'SECONDS',
      description: described('timeout_s'),
    },
    domains: {
      type: 'string',
      multiple: true,
      value: 'HOSTS',
      description:
        'hosts the task may visit, within the policy (repeat or comma-separate: example.org, *.example.org, 127.0.0.1:8700; no :port means 80 and 443)',
    },
    tenant: { type: 'string', value: 'T', description: "run under tenant T's policy" },
    json,
  },
  summary: "run one task under a tenant's policy (default tenant: default)",
  details: ['The words of INSTRUCTION are joined by spaces; quote it to keep it one argument.'],
  parse(values, words) {
    const domains = values.domains.flatMap((value) =>
      value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean),
    );
    const parsed = browserRunTaskInputSchema.safeParse({
      instruction: words.join(' '),
      ...(domains.length > 0 ? { domains } : {}),
      ...(values['start-url'] !== undefined ? { start_url: values['start-url'] } : {}),
      ...(values['max-steps'] !== undefined ? { max_steps: values['max-steps'] } : {}),
      ...(values.timeout !== undefined ? { timeout_s: values.timeout } : {}),
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = argumentOf[String(issue?.path[0])] ?? 'argument';
      throw new AppError('USAGE', `${where}: ${issue?.message ?? 'invalid'}`);
    }
    return { name: 'run', input: parsed.data, tenant: values.tenant, json: values.json };
  },
});

const demo = defineCommand({
  words: ['demo'],
  positionals: [],
  flags: { json },
  summary: 'run the bundled demo task with the replay model',
  parse: (values) => ({ name: 'demo', json: values.json }),
});

const serve = defineCommand({
  words: ['serve'],
  positionals: [],
  flags: {},
  summary: 'start the controlplane (what npm start runs)',
  parse: () => ({ name: 'serve' }),
});

const mcp = defineCommand({
  words: ['mcp'],
  positionals: [],
  flags: {},
  summary: 'serve browser_run_task over MCP on stdin/stdout',
  parse: () => ({ name: 'mcp' }),
});

export const taskCommands = [run, demo, serve, mcp];
