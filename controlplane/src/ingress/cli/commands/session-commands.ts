// `clawdie session list|save|revoke`: saved browser session profiles.
import { defineCommand } from '../command-spec.js';

const tenant = {
  type: 'string',
  value: 'T',
  description: "the profiles' tenant (default: default)",
} as const;

const list = defineCommand({
  words: ['session', 'list'],
  positionals: [],
  flags: { tenant },
  summary: 'saved session profiles (metadata only, never values)',
  parse: (values) => ({ name: 'session-list', tenant: values.tenant }),
});

const save = defineCommand({
  words: ['session', 'save'],
  positionals: [],
  flags: {
    task: { type: 'string', value: 'ID', required: true, description: 'the running task' },
    name: { type: 'string', value: 'N', required: true, description: "the profile's name" },
    origin: {
      type: 'string',
      value: 'O',
      multiple: true,
      required: true,
      description: 'an origin whose cookies and storage are saved',
    },
    ttl: {
      type: 'integer',
      value: 'SECONDS',
      description: 'how long the profile lasts (default: CLAWDIE_SESSION_TTL_S)',
    },
  },
  summary: "save a running task's browser session (needs the server)",
  parse: (values) => ({
    name: 'session-save',
    taskId: values.task,
    session: values.name,
    origins: values.origin,
    ttlS: values.ttl,
  }),
});

const revoke = defineCommand({
  words: ['session', 'revoke'],
  positionals: [{ name: 'NAME' }],
  flags: { tenant },
  summary: 'revoke a profile and wipe its data',
  parse: (values, [session = '']) => ({ name: 'session-revoke', session, tenant: values.tenant }),
});

export const sessionCommands = [list, save, revoke];
