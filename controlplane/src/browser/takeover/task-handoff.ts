// One task's takeover port for the loop (agent/handoff-types.ts): page-signal detection after each
// screenshot, and the needs_user wait — reported to the task run (which writes the row and
// publishes the status), the supervisors' Telegram message with a signed link, the audit — until an
// supervisor hands back, the policy's timeout, or the task ends.
import type { PageSignals } from '@clawdie/kit/jail-api';
import type { Logger } from 'pino';
import type { HandoffOutcome, LoopHandoff } from '../../agent/loop/handoff-types.js';
import type { Clock } from '../../clock.js';
import type { NoticeSender } from '../../governance/approvals/notice-sender.js';
import { appendOrLog } from '../../governance/audit/append-or-log.js';
import type { AuditEvent, AuditLog } from '../../governance/audit/audit-log.js';
import type { HandoffPolicy, HandoffReason } from '../../governance/policy/handoff-schema.js';
import type { JailEndpoint } from '../provider/browser-provider.js';
import { createInputAudit } from './input-audit.js';
import { createJailTakeoverClient } from './jail-takeover-client.js';
import type { TakeoverLinks } from './takeover-links.js';
import type { HandBack, TakeoverRegistry } from './takeover-registry.js';

export interface TakeoverDeps {
  registry: TakeoverRegistry;
  links: TakeoverLinks;
  audit: AuditLog;
  clock: Clock;
  logger: Logger;
  /** Base URL supervisors reach the controlplane at (links in the Telegram message). */
  publicUrl: string;
  /** Sends supervisor notices (Telegram); never rejects. Absent: no message. */
  notify?: NoticeSender | undefined;
}

export interface TaskHandoffContext {
  taskId: string;
  tenant: string;
  policy: HandoffPolicy;
  endpoint: JailEndpoint | null;
  /**
   * Tells the task run a person is needed (`needs_user`, with why) once the takeover is open, and
   * no longer (null) when it ends without an abort. Must not throw.
   */
  onNeedsUser(reason: HandoffReason | null): void;
  /** The screen for the supervisors' message (null when it cannot be taken). */
  screenshot(): Promise<Buffer | null>;
}

/** Which detector fired, given what the page shows and what was handled already. */
function detected(signals: PageSignals, on: ReadonlySet<HandoffReason>, handled: Set<string>) {
  const at = (reason: HandoffReason) => `${reason}@${signals.url_origin}`;
  if (on.has('login') && signals.password.count > 0 && signals.password.new_origin) return 'login';
  if (on.has('otp') && signals.one_time_code > 0 && !handled.has(at('otp'))) return 'otp';
  if (on.has('captcha') && signals.captchas.length > 0 && !handled.has(at('captcha')))
    return 'captcha';
  return null;
}

export function createTaskHandoff(deps: TakeoverDeps, context: TaskHandoffContext): LoopHandoff {
  const { taskId, policy } = context;
  const logger = deps.logger.child({ module: 'takeover', taskId });
  const on = new Set(policy.on);
  const client = context.endpoint ? createJailTakeoverClient(context.endpoint) : null;
  const loginOrigins = new Set<string>();
  const handled = new Set<string>();
  let last: PageSignals | null = null;
  /** Appends a row of this takeover; never rejects (a failure is logged). */
  const audit = (type: AuditEvent['type'], data: Record<string, unknown>) =>
    appendOrLog(deps.audit, { type, actor: 'system', taskId, data }, logger);

  async function notifySupervisors(reason: HandoffReason, summary: string | null) {
    if (!deps.notify) return;
    const user = 'telegram-supervisors';
    const { token, expiresAt } = deps.links.mint({ task: taskId, tenant: context.tenant, user });
    await audit('takeover-link-issued', { via: 'telegram', user, reason, expires_at: expiresAt });
    await deps.notify({
      kind: 'needs_user',
      taskId,
      tenant: context.tenant,
      reason,
      summary: summary ?? '',
      link: `${deps.publicUrl.replace(/\/+$/, '')}/takeover/${taskId}/open?t=${token}`,
      expiresAt,
      screenshot: await context.screenshot().catch(() => null),
    });
  }

  function markHandled(reason: HandoffReason) {
    if (!last) return;
    if (reason === 'login') for (const origin of last.password.origins) loginOrigins.add(origin);
    handled.add(`${reason}@${last.url_origin}`);
  }

  return {
    on,
    async detect(signal) {
      if (!client || !(on.has('login') || on.has('otp') || on.has('captcha'))) return null;
      try {
        last = await client.signals([...loginOrigins], signal);
      } catch (error) {
        logger.warn({ err: error }, 'page signals could not be read');
        return null;
      }
      logger.debug({ signalsMs: last.elapsed_ms }, 'page signals read');
      return detected(last, on, handled);
    },

    async request(request, signal) {
      const startedAt = deps.clock.now();
      const deadline = startedAt + policy.timeout_s * 1000;
      const { reason } = request;
      let resolveHandBack: (handBack: HandBack) => void = () => undefined;
      const handedBack = new Promise<HandBack>((resolve) => {
        resolveHandBack = resolve;
      });
      const inputs = createInputAudit(
        (burst) => void audit('takeover-input', { reason, ...burst }),
      );
      deps.registry.open({
        taskId,
        tenant: context.tenant,
        reason,
        startedAt,
        deadline,
        summary: request.summary,
        screenshot: context.screenshot,
        endpoint: context.endpoint,
        client,
        origin: last?.url_origin ?? null,
        inputs,
        handBack: (handBack) => resolveHandBack(handBack),
      });
      context.onNeedsUser(reason);
      await audit('takeover-started', {
        phase: 'needs_user',
        reason,
        step: request.step,
        timeout_s: policy.timeout_s,
      });
      void notifySupervisors(reason, request.summary).catch((error: unknown) =>
        logger.error({ err: error }, 'takeover notice failed'),
      );
      let timer: NodeJS.Timeout | undefined;
      let onAbort: (() => void) | undefined;
      let outcome: HandoffOutcome = { kind: 'timed_out', onTimeout: policy.on_timeout };
      let by = 'system';
      try {
        const timedOut = new Promise<null>((resolve) => {
          timer = setTimeout(() => resolve(null), deadline - deps.clock.now());
        });
        const aborted = new Promise<never>((_, reject) => {
          signal?.throwIfAborted();
          onAbort = () => reject(signal?.reason);
          signal?.addEventListener('abort', onAbort, { once: true });
        });
        const handBack = await Promise.race([handedBack, timedOut, aborted]);
        if (handBack) {
          outcome = { kind: 'handed_back', note: handBack.note };
          by = handBack.by;
          markHandled(reason);
        }
        return outcome;
      } finally {
        clearTimeout(timer);
        if (onAbort) signal?.removeEventListener('abort', onAbort);
        inputs.flush();
        deps.registry.close(taskId);
        const ended = signal?.aborted ? 'aborted' : outcome.kind;
        await audit('takeover-ended', {
          reason,
          outcome: ended,
          by,
          duration_ms: deps.clock.now() - startedAt,
          ...(ended === 'timed_out' ? { on_timeout: policy.on_timeout } : {}),
        });
        if (!signal?.aborted) context.onNeedsUser(null);
      }
    },
  };
}
