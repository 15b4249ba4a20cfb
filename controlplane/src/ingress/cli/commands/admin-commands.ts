// `clawdie audit verify`, `keys rotate`, `token create` and `secret set`.
import { AppError } from '../../../errors.js';
import { defineCommand } from '../command-spec.js';

const auditVerify = defineCommand({
  words: ['audit', 'verify'],
  positionals: [],
  flags: { json: { type: 'boolean', description: 'the result as one JSON object on stdout' } },
  summary: "check the audit log's hash chain; names the first bad row",
  parse: (values) => ({ name: 'audit-verify', json: values.json }),
});

const keysRotate = defineCommand({
  words: ['keys', 'rotate'],
  positionals: [],
  flags: {
    keep: {
      type: 'integer',
      value: 'N',
      default: 3,
      description: 'how many of the newest keys stay accepted',
    },
  },
  summary: 'add a new token-signing key to the JWKS file',
  parse: (values) => ({ name: 'keys-rotate', keep: values.keep }),
});

const tokenCreate = defineCommand({
  words: ['token', 'create'],
  positionals: [],
  flags: {
    tenant: { type: 'string', value: 'T', required: true, description: "the token's tenant" },
    scope: {
      type: 'string',
      value: 'S',
      multiple: true,
      required: true,
      description: 'a scope it grants: tasks:run, tasks:read or admin',
    },
    ttl: {
      type: 'integer',
      value: 'SECONDS',
      default: 3600,
      description: 'how long it stays valid',
    },
    subject: { type: 'string', value: 'NAME', description: "the token's subject (default: T)" },
  },
  summary: 'print a signed API token on stdout',
  parse: (values) => ({
    name: 'token-create',
    tenant: values.tenant,
    scopes: values.scope,
    ttlSeconds: values.ttl,
    subject: values.subject ?? values.tenant,
  }),
});

const secretSet = defineCommand({
  words: ['secret', 'set'],
  positionals: [{ name: 'NAME' }],
  flags: {
    tenant: { type: 'string', value: 'T', required: true, description: "the secret's tenant" },
  },
  summary: 'store a secret read from stdin (AES-256-GCM)',
  parse(values, [secret = '']) {
    if (!/^[A-Za-z0-9_.-]+$/.test(secret))
      throw new AppError('USAGE', 'NAME: letters, digits, _ . - only');
    return { name: 'secret-set', secret, tenant: values.tenant };
  },
});

export const adminCommands = [auditVerify, keysRotate, tokenCreate, secretSet];
