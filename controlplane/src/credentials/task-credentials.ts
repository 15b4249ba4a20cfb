import type { Action, ActionsResponse } from '@clawdie/jail-service/api';
import type { Logger } from 'pino';
import type { AuditLog } from '../audit/audit-log.js';
import { OperatorError } from '../errors.js';
import type { BrowserOperator } from '../operator/browser-operator.js';
import { hostOf } from '../policy/domain-match.js';
import { fillSecrets, secretNamesIn } from '../policy/secret-placeholders.js';
import type { GrantAuthority } from './grant-authority.js';
import type { SecretVault } from './secret-vault.js';

export interface TaskCredentialsDeps {
  taskId: string;
  tenant: string;
  actor: string;
  vault: SecretVault;
  grants: GrantAuthority;
  audit: AuditLog;
  logger: Logger;
  /** Grant lifetime (default 60 s): approval and typing happen in the same step. */
  grantTtlSeconds?: number;
}

/**
 * Secret injection for one task. After an operator approves, `onSecretApproved` mints a grant;
 * the wrapped operator then replaces `{{secret:name}}` in `type` actions with the value, only
 * with a valid grant for this task, that secret and the current host (one use each). The value
 * is never returned: the response is scrubbed, and events and traces keep the placeholder.
 */
export function createTaskCredentials(deps: TaskCredentialsDeps) {
  const granted = new Map<string, string>();
  return {
    async onSecretApproved(name: string, host: string) {
      granted.set(
        name,
        await deps.grants.mint({
          taskId: deps.taskId,
          secret: name,
          host,
          ttlSeconds: deps.grantTtlSeconds ?? 60,
        }),
      );
    },
    wrapOperator(operator: BrowserOperator): BrowserOperator {
      return {
        screenshot: (signal) => operator.screenshot(signal),
        state: (signal) => operator.state(signal),
        async execute(actions, signal) {
          const names = [
            ...new Set(
              actions.flatMap((action) =>
                action.type === 'type' ? secretNamesIn(action.text) : [],
              ),
            ),
          ];
          if (names.length === 0) return operator.execute(actions, signal);
          const host = hostOf((await operator.state(signal)).url) ?? '';
          const values = new Map<string, string>();
          for (const name of names) values.set(name, await resolve(name, host));
          const filled: Action[] = actions.map((action) =>
            action.type === 'type'
              ? { ...action, text: fillSecrets(action.text, (name) => values.get(name) ?? '') }
              : action,
          );
          const response = await operator.execute(filled, signal);
          for (const name of names) {
            deps.audit.append({
              type: 'credential-typed',
              actor: deps.actor,
              taskId: deps.taskId,
              data: { secret: name, host },
            });
          }
          return scrub(response, values);
        },
      };
    },
  };

  async function resolve(name: string, host: string): Promise<string> {
    const token = granted.get(name);
    granted.delete(name);
    try {
      if (!token) throw new Error('no operator approval');
      await deps.grants.verify(token, { taskId: deps.taskId, secret: name, host });
    } catch (error) {
      throw refuse(name, host, 'OPERATOR_REJECTED', `no valid grant: ${(error as Error).message}`);
    }
    let value: string | null;
    try {
      value = deps.vault.reveal(deps.tenant, name);
    } catch (error) {
      throw refuse(name, host, 'SECRET_UNAVAILABLE', (error as Error).message);
    }
    if (value === null)
      throw refuse(
        name,
        host,
        'SECRET_UNAVAILABLE',
        `secret ${name} is not stored for tenant ${deps.tenant}: store it with \`clawdie secret set ${name} --tenant ${deps.tenant}\``,
      );
    return value;
  }

  /** Audits a refused secret and returns the error that stops the batch (nothing is typed). */
  function refuse(
    name: string,
    host: string,
    code: 'OPERATOR_REJECTED' | 'SECRET_UNAVAILABLE',
    reason: string,
  ): OperatorError {
    deps.logger.warn({ secret: name, host, code }, 'secret typing refused');
    deps.audit.append({
      type: 'credential-refused',
      actor: deps.actor,
      taskId: deps.taskId,
      data: { secret: name, host, code, reason },
    });
    return new OperatorError(code, `secret ${name} was not typed on ${host}: ${reason}`);
  }
}

/** The response with every secret value replaced by its placeholder (errors can echo input). */
function scrub(response: ActionsResponse, values: Map<string, string>): ActionsResponse {
  let text = JSON.stringify(response);
  for (const [name, value] of values)
    if (value) text = text.split(JSON.stringify(value).slice(1, -1)).join(`{{secret:${name}}}`);
  return JSON.parse(text) as ActionsResponse;
}
