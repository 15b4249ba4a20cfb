import type {
  Action,
  ActionResult,
  ActionsResponse,
  LandingResponse,
  SecretGuard,
} from '@clawdie/kit/jail-api';
import type { Logger } from 'pino';
import type { BrowserOperator } from '../../browser/operator/browser-operator.js';
import { OperatorError } from '../../errors.js';
import { appendOrFail } from '../audit/append-or-log.js';
import type { AuditLog } from '../audit/audit-log.js';
import { capText } from '../audit/bounded-text.js';
import { hostOf } from '../policy/domain-match.js';
import { type SecretEntry, secretFields } from '../policy/policy-schema.js';
import { fillSecrets, secretNamesIn, secretNamesInActions } from '../policy/secret-placeholders.js';
import type { GrantAuthority } from './grant-authority.js';
import type { SecretVault } from './secret-vault.js';

export interface TaskCredentialsDeps {
  taskId: string;
  tenant: string;
  actor: string;
  vault: SecretVault;
  grants: GrantAuthority;
  /** The tenant policy's secrets: which fields each may be typed into (the jail's `secret` guard). */
  secrets: readonly SecretEntry[];
  audit: AuditLog;
  logger: Logger;
  /** Grant lifetime (default 60 s): approval and typing happen in the same step. */
  grantTtlSeconds?: number;
}

/**
 * Secret injection for one task. After a supervisor approves, `onSecretApproved` mints a grant;
 * the wrapped operator then replaces `{{secret:name}}` in `type` actions with the value, only
 * with a valid grant for this task, that secret and the focused field's frame host (one use
 * each), and sets the jail-service's `secret` guard: typed only into a field of that origin of
 * a kind the policy allows for the secret (FOCUS_MISMATCH else, audited `credential-refused`).
 * The value is never returned: the response is scrubbed, and events and traces keep the
 * placeholder.
 */
export function createTaskCredentials(deps: TaskCredentialsDeps) {
  const granted = new Map<string, string>();
  // Once a secret has gone into a page, the page may carry it in its address (a login form
  // without `method` submits by GET): from then on addresses lose their query and fragment.
  let secretTyped = false;
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
        screenshot: (signal, options) => operator.screenshot(signal, options),
        state: async (signal) => {
          const state = await operator.state(signal);
          return secretTyped ? { ...state, url: withoutQuery(state.url) } : state;
        },
        landing: async (action, signal) => {
          const landing = await operator.landing(action, signal);
          return secretTyped ? landingWithoutQueries(landing) : landing;
        },
        async execute(actions, signal) {
          const names = secretNamesInActions(actions);
          if (names.length === 0) return operator.execute(actions, signal);
          const values = new Map<string, string>();
          const typed: { index: number; names: string[]; origin: string; host: string }[] = [];
          const filled: Action[] = [];
          for (const [index, action] of actions.entries()) {
            const used = action.type === 'type' ? secretNamesIn(action.text) : [];
            if (action.type !== 'type' || used.length === 0) {
              filled.push(action);
              continue;
            }
            const { origin, host } = await focusOf(action, used);
            for (const name of used)
              if (!values.has(name)) values.set(name, await resolve(name, host, origin));
            typed.push({ index, names: used, origin, host });
            filled.push({
              ...action,
              text: fillSecrets(action.text, (name) => values.get(name) ?? ''),
              secret: guardFor(used, origin),
            });
          }
          const response = await operator.execute(filled, signal);
          for (const entry of typed) {
            const result = response.results[entry.index];
            if (result?.status === 'ok') secretTyped = true;
            await auditTyping(entry, result);
          }
          return scrub(response, values);
        },
      };
    },
  };

  /**
   * Where the `type` goes, as the gate saw it: the focused field's frame origin pinned in the
   * action's `expect` (set from its landing). Without one the field was never checked: refused.
   */
  async function focusOf(action: Extract<Action, { type: 'type' }>, names: string[]) {
    const origin = action.expect?.origins.at(-1) ?? null;
    const host = origin ? (hostOf(origin) ?? '') : '';
    if (!origin || !host)
      throw await refuse(
        names[0] ?? '',
        host,
        'OPERATOR_REJECTED',
        'where the focus is could not be checked (no landing of the field)',
        origin,
      );
    return { origin, host };
  }

  /** The jail-service's field rule for these secrets: this origin, their fields (all must allow). */
  function guardFor(names: string[], origin: string): SecretGuard {
    const rules = names.map((name) => {
      const entry = deps.secrets.find((secret) => secret.name === name);
      return entry ? secretFields(entry) : { kinds: [], autocomplete: [] };
    });
    const [first, ...rest] = rules;
    return {
      origins: [origin],
      fields: (first?.kinds ?? []).filter((kind) =>
        rest.every((rule) => rule.kinds.includes(kind)),
      ),
      autocomplete: (first?.autocomplete ?? []).filter((token) =>
        rest.every((rule) => rule.autocomplete.includes(token)),
      ),
    };
  }

  async function auditTyping(
    entry: { names: string[]; origin: string; host: string },
    result: ActionResult | undefined,
  ) {
    for (const name of entry.names) {
      if (result?.status === 'ok') {
        await appendOrFail(deps.audit, {
          type: 'credential-typed',
          actor: deps.actor,
          taskId: deps.taskId,
          data: { secret: name, host: entry.host, origin: capText(entry.origin) },
        });
      } else if (result?.error?.code === 'FOCUS_MISMATCH') {
        deps.logger.warn({ secret: name, origin: entry.origin }, 'secret typing refused');
        await appendOrFail(deps.audit, {
          type: 'credential-refused',
          actor: deps.actor,
          taskId: deps.taskId,
          data: {
            secret: name,
            host: entry.host,
            origin: capText(entry.origin),
            code: 'FOCUS_MISMATCH',
            reason: 'the jail-service found the focus outside the field the secret is for',
          },
        });
      }
    }
  }

  async function resolve(name: string, host: string, origin: string): Promise<string> {
    const token = granted.get(name);
    granted.delete(name);
    try {
      if (!token) throw new Error('no supervisor approval');
      await deps.grants.verify(token, { taskId: deps.taskId, secret: name, host });
    } catch (error) {
      throw await refuse(
        name,
        host,
        'OPERATOR_REJECTED',
        `no valid grant: ${(error as Error).message}`,
        origin,
      );
    }
    let value: string | null;
    try {
      value = await deps.vault.reveal(deps.tenant, name);
    } catch (error) {
      throw await refuse(name, host, 'SECRET_UNAVAILABLE', (error as Error).message, origin);
    }
    if (value === null)
      throw await refuse(
        name,
        host,
        'SECRET_UNAVAILABLE',
        `secret ${name} is not stored for tenant ${deps.tenant}: store it with \`clawdie secret set ${name} --tenant ${deps.tenant}\``,
        origin,
      );
    return value;
  }

  /**
   * Audits a refused secret (committed before it resolves) and resolves to the error that stops
   * the batch (nothing is typed).
   */
  async function refuse(
    name: string,
    host: string,
    code: 'OPERATOR_REJECTED' | 'SECRET_UNAVAILABLE',
    reason: string,
    origin: string | null,
  ): Promise<OperatorError> {
    deps.logger.warn({ secret: name, host, code }, 'secret typing refused');
    await appendOrFail(deps.audit, {
      type: 'credential-refused',
      actor: deps.actor,
      taskId: deps.taskId,
      data: {
        secret: capText(name, 64),
        host,
        ...(origin ? { origin: capText(origin) } : {}),
        code,
        reason: capText(reason, 300),
      },
    });
    return new OperatorError(code, `secret ${name} was not typed on ${host}: ${reason}`);
  }
}

/**
 * The response with every secret value replaced by its placeholder (errors can echo input), as
 * written and as a URL carries it (percent-encoded; a form's `+` for spaces).
 */
function scrub(response: ActionsResponse, values: Map<string, string>): ActionsResponse {
  let text = JSON.stringify(response);
  for (const [name, value] of values) {
    if (!value) continue;
    const encoded = encodeURIComponent(value);
    for (const form of new Set([value, encoded, encoded.replaceAll('%20', '+')]))
      text = text.split(JSON.stringify(form).slice(1, -1)).join(`{{secret:${name}}}`);
  }
  return JSON.parse(text) as ActionsResponse;
}

/** `url` without its query and fragment (`?…` says one was there); anything unparsable whole. */
export function withoutQuery(url: string): string {
  try {
    const parsed = new URL(url);
    const had = parsed.search !== '' || parsed.hash !== '';
    return `${parsed.origin === 'null' ? `${parsed.protocol}` : parsed.origin}${parsed.pathname}${had ? '?…' : ''}`;
  } catch {
    return url.replace(/[?#].*$/s, '?…');
  }
}

function landingWithoutQueries(landing: LandingResponse): LandingResponse {
  const target = landing.target && {
    ...landing.target,
    frames: landing.target.frames.map((frame) => ({ ...frame, url: withoutQuery(frame.url) })),
  };
  return { ...landing, url: withoutQuery(landing.url), target };
}
