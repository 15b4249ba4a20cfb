import { systemClock } from '../../clock.js';
import type { Config } from '../../config.js';
import { AppError } from '../../errors.js';
import { openAuditTrail } from '../../governance/audit/open-audit-trail.js';
import { loadApiAuth } from '../../governance/auth/api-auth.js';
import { isScope } from '../../governance/auth/scopes.js';
import { rotateSigningKeys } from '../../governance/auth/signing-keys.js';
import { createSecretVault, loadVaultKey } from '../../governance/credentials/secret-vault.js';
import { printLine } from './cli-output.js';
import { openCliStores } from './cli-stores.js';
import type { Command } from './command.js';

type AdminCommand = Extract<Command, { name: 'keys-rotate' | 'token-create' | 'secret-set' }>;

/**
 * `clawdie keys rotate` and `clawdie token create`. Tokens go to stdout (nothing else does), so
 * `TOKEN=$(clawdie token create ...)` works; messages go to stderr.
 */
export async function runAdminCommand(
  command: AdminCommand,
  config: Readonly<Config>,
): Promise<number> {
  if (command.name === 'keys-rotate') {
    const { kid, kept } = await rotateSigningKeys(config.auth.jwksFile, {
      keep: command.keep,
      now: Date.now(),
    });
    printLine(
      `new signing key ${kid} in ${config.auth.jwksFile} (keys accepted: ${kept.join(', ')})`,
    );
    printLine('restart the controlplane to use it; API auth is on while this file exists');
    return 0;
  }
  if (command.name === 'secret-set') return setSecret(command, config);
  const unknown = command.scopes.filter((scope) => !isScope(scope));
  if (unknown.length > 0) {
    throw new AppError(
      'USAGE',
      `--scope: unknown ${unknown.join(', ')} (use tasks:run, tasks:read, admin)`,
    );
  }
  const auth = await loadApiAuth({ ...config.auth, required: true });
  if (!auth) throw new Error('unreachable: auth is required');
  const token = await auth.issue({
    tenant: command.tenant,
    subject: command.subject,
    scopes: command.scopes.filter(isScope),
    ttlSeconds: command.ttlSeconds,
  });
  process.stdout.write(`${token}\n`);
  printLine(
    `token for tenant ${command.tenant} (${command.scopes.join(' ')}), valid ${command.ttlSeconds} s`,
  );
  return 0;
}

/** `clawdie secret set NAME --tenant T`: the value comes from stdin, never from arguments. */
async function setSecret(
  command: Extract<Command, { name: 'secret-set' }>,
  config: Readonly<Config>,
): Promise<number> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const value = Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
  if (!value) throw new AppError('USAGE', 'secret set: pipe the value on stdin');
  const stores = await openCliStores(config);
  try {
    // The audit first: a refused audit key (AUDIT_KEY_MISSING) stores nothing unaudited.
    const audit = await openAuditTrail(stores.audit, {
      keyFile: config.auditKeyFile,
      clock: systemClock,
      mode: 'append',
      shared: stores.backend === 'postgres',
    });
    try {
      const key = loadVaultKey(config.secretsKeyFile, { create: true });
      await createSecretVault(stores.secrets, key).put(command.tenant, command.secret, value);
      await audit.append({
        type: 'secret-stored',
        actor: 'cli',
        data: { tenant: command.tenant, secret: command.secret },
      });
    } finally {
      audit.close();
    }
  } finally {
    await stores.close();
  }
  printLine(
    `stored secret ${command.secret} for tenant ${command.tenant} (key: ${config.secretsKeyFile})`,
  );
  return 0;
}
