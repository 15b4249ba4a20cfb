import type { BrowserOperator } from '../../browser/operator/browser-operator.js';
import { OperatorError } from '../../errors.js';
import { appendOrFail } from '../audit/append-or-log.js';
import type { AuditLog } from '../audit/audit-log.js';
import { secretNamesInActions } from '../policy/secret-placeholders.js';

export interface PlaceholderGuardDeps {
  taskId: string;
  actor: string;
  audit: AuditLog;
}

/**
 * The last gate before the browser: a `type` action that still holds a `{{secret:name}}`
 * placeholder is refused (audited as `credential-refused`, committed before the refusal) and
 * nothing of the batch runs. Only the
 * credential wrapper replaces placeholders, after an approval; whatever reaches here unreplaced —
 * a task without credential support, a path that skipped it — would type the placeholder itself.
 */
export function refuseSecretPlaceholders(
  operator: BrowserOperator,
  deps: PlaceholderGuardDeps,
): BrowserOperator {
  return {
    screenshot: (signal, options) => operator.screenshot(signal, options),
    state: (signal) => operator.state(signal),
    // Where a `type` would land does not depend on its text: the placeholder is never typed.
    landing: (action, signal) => operator.landing(action, signal),
    async execute(actions, signal) {
      const names = secretNamesInActions(actions);
      if (names.length === 0) return operator.execute(actions, signal);
      const reason = 'this task has no credential support (credential_mode none, or no policy)';
      for (const name of names)
        await appendOrFail(deps.audit, {
          type: 'credential-refused',
          actor: deps.actor,
          taskId: deps.taskId,
          data: { secret: name, code: 'OPERATOR_REJECTED', reason },
        });
      throw new OperatorError(
        'OPERATOR_REJECTED',
        `secret placeholder ${names.map((name) => `{{secret:${name}}}`).join(', ')} was not typed: ${reason}`,
      );
    },
  };
}
