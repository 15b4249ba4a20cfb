import { createSessionProfileService } from '../../browser/sessions/session-profile-service.js';
import { sessionView } from '../../browser/sessions/session-view.js';
import { systemClock } from '../../clock.js';
import type { Config } from '../../config.js';
import { AppError } from '../../errors.js';
import { openAuditTrail } from '../../governance/audit/open-audit-trail.js';
import type { Principal } from '../../governance/auth/scopes.js';
import { loadVaultKey } from '../../governance/credentials/secret-vault.js';
import { printJson } from './cli-output.js';
import { openCliStores } from './cli-stores.js';
import type { Command } from './command.js';
import { runningServerUrl } from './session-server.js';

export type SessionCommand = Extract<
  Command,
  { name: 'session-list' | 'session-save' | 'session-revoke' }
>;

export interface SessionCommandDeps {
  /** Where a running server answers (default: its instance row in the data directory). */
  serverUrl?: (config: Readonly<Config>) => Promise<string | null>;
  fetch?: typeof fetch;
  print?: (value: unknown) => void;
}

/**
 * `clawdie session list|save|revoke`: through the running server's REST API when one holds the
 * data directory (bearer: CLAWDIE_ADMIN_TOKEN), else list and revoke on the store directly.
 * `save` needs the server: the task's browser lives there. Prints metadata only, never values.
 */
export async function runSessionCommand(
  command: SessionCommand,
  config: Readonly<Config>,
  deps: SessionCommandDeps = {},
): Promise<number> {
  const print = deps.print ?? printJson;
  const url = await (deps.serverUrl ?? runningServerUrl)(config);
  if (url) {
    print(await viaServer(command, url, config.adminToken, deps.fetch ?? fetch));
    return 0;
  }
  if (command.name === 'session-save')
    throw new AppError(
      'NO_SERVER',
      'session save: no running server holds this data directory (a task and its browser live in the server: start it with npm start)',
    );
  print(await onStore(command, config));
  return 0;
}

async function viaServer(
  command: SessionCommand,
  url: string,
  token: string | null,
  doFetch: typeof fetch,
): Promise<unknown> {
  const tenant = command.tenant ? `?tenant=${encodeURIComponent(command.tenant)}` : '';
  const request =
    command.name === 'session-list'
      ? { method: 'GET', path: '/v1/sessions' }
      : command.name === 'session-revoke'
        ? { method: 'DELETE', path: `/v1/sessions/${encodeURIComponent(command.session)}${tenant}` }
        : {
            method: 'POST',
            path: '/v1/sessions',
            body: {
              task_id: command.taskId,
              name: command.session,
              origins: command.origins,
              ...(command.ttlS ? { ttl_s: command.ttlS } : {}),
            },
          };
  const response = await doFetch(`${url}${request.path}`, {
    method: request.method,
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...('body' in request ? { body: JSON.stringify(request.body) } : {}),
  });
  const body = (await response.json().catch(() => null)) as {
    error?: { code: string; message: string };
  } | null;
  if (response.status === 401)
    throw new AppError(
      'UNAUTHORIZED',
      `${url}${request.path}: the running server needs its admin token: ${token ? 'CLAWDIE_ADMIN_TOKEN is set but the server refused it' : 'set CLAWDIE_ADMIN_TOKEN'} (the server's own CLAWDIE_ADMIN_TOKEN, or the token \`npm start\` printed)`,
    );
  if (!response.ok)
    throw new AppError(
      body?.error?.code ?? 'SERVER_ERROR',
      `${url}${request.path}: ${body?.error?.message ?? `HTTP ${response.status}`}`,
    );
  return body;
}

async function onStore(
  command: Exclude<SessionCommand, { name: 'session-save' }>,
  config: Readonly<Config>,
) {
  const stores = await openCliStores(config);
  const audit = await openAuditTrail(stores.audit, {
    keyFile: config.auditKeyFile,
    clock: systemClock,
    mode: 'append',
    shared: stores.backend === 'postgres',
  });
  try {
    const service = createSessionProfileService({
      store: stores.sessionProfiles,
      key: () => loadVaultKey(config.secretsKeyFile, { create: false }),
      audit,
      clock: systemClock,
      defaultTtlS: config.sessionTtlS,
      taskTenant: async () => null,
      transferOf: () => null,
    });
    const cli: Principal = {
      tenant: command.tenant ?? 'default',
      subject: 'cli',
      scopes: ['admin'],
      via: 'loopback',
    };
    const now = systemClock.now();
    if (command.name === 'session-list')
      return { sessions: (await service.list(cli)).map((meta) => sessionView(meta, now)) };
    return sessionView(await service.revoke(command.session, cli), now);
  } finally {
    audit.close();
    await stores.close();
  }
}
