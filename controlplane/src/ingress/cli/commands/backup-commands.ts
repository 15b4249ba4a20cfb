// `clawdie backup` and `clawdie restore`.
import { defineCommand } from '../command-spec.js';

const dataDir = {
  type: 'string',
  value: 'DIR',
  description: 'the data directory, standing for CLAWDIE_DATA_DIR',
} as const;

const backup = defineCommand({
  words: ['backup'],
  positionals: [{ name: 'DEST' }],
  flags: { 'data-dir': dataDir },
  summary: 'copy the data dir into the new directory DEST (safe while the server runs)',
  parse: (values, [destination = '']) => ({
    name: 'backup',
    destination,
    dataDir: values['data-dir'],
  }),
});

const restore = defineCommand({
  words: ['restore'],
  positionals: [{ name: 'BACKUP' }],
  flags: { 'data-dir': dataDir },
  summary: 'restore a backup into an absent or empty data dir',
  parse: (values, [source = '']) => ({ name: 'restore', source, dataDir: values['data-dir'] }),
});

export const backupCommands = [backup, restore];
