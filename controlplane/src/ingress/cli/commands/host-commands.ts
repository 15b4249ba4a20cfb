// `clawdie hosts list|add|drain|resume|remove`: the jail hosts (hostd) tasks may be placed on.
import { AppError } from '../../../errors.js';
import { defineCommand } from '../command-spec.js';

const list = defineCommand({
  words: ['hosts', 'list'],
  positionals: [],
  flags: { json: { type: 'boolean', description: 'print JSON instead of a table' } },
  summary: 'registered jail hosts with their labels, load and health',
  parse: (values) => ({ name: 'hosts-list', json: values.json }),
});

const add = defineCommand({
  words: ['hosts', 'add'],
  positionals: [{ name: 'NAME' }],
  flags: {
    url: {
      type: 'string',
      value: 'URL',
      required: true,
      description: "the host's hostd, e.g. http://10.0.0.5:7300",
    },
    label: {
      type: 'string',
      value: 'KEY=VALUE',
      multiple: true,
      description: 'a label placement matches (os=freebsd, display=yes, region=eu); repeatable',
    },
    capacity: {
      type: 'integer',
      value: 'N',
      default: 4,
      description: 'clones the host may hold at once (default 4)',
    },
  },
  summary: 'register a jail host; prints the token to set as its CLAWDIE_HOSTD_TOKEN, once',
  parse: (values, [host = '']) => ({
    name: 'hosts-add',
    host,
    url: values.url,
    labels: parseLabels(values.label),
    capacity: values.capacity,
  }),
});

const drain = defineCommand({
  words: ['hosts', 'drain'],
  positionals: [{ name: 'NAME' }],
  flags: {},
  summary: 'stop placing new tasks on a host; its running tasks go on',
  parse: (_values, [host = '']) => ({ name: 'hosts-drain', host }),
});

const resume = defineCommand({
  words: ['hosts', 'resume'],
  positionals: [{ name: 'NAME' }],
  flags: {},
  summary: 'place new tasks on a drained host again',
  parse: (_values, [host = '']) => ({ name: 'hosts-resume', host }),
});

const remove = defineCommand({
  words: ['hosts', 'remove'],
  positionals: [{ name: 'NAME' }],
  flags: {
    force: { type: 'boolean', description: 'remove a host that is up and holds clones' },
  },
  summary: 'forget a host and revoke its token',
  parse: (values, [host = '']) => ({ name: 'hosts-remove', host, force: values.force }),
});

function parseLabels(pairs: readonly string[]): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new AppError('USAGE', `--label ${pair}: write KEY=VALUE`);
    const key = pair.slice(0, at);
    if (key in labels) throw new AppError('USAGE', `--label ${key}: given twice`);
    labels[key] = pair.slice(at + 1);
  }
  return labels;
}

export const hostCommands = [list, add, drain, resume, remove];
