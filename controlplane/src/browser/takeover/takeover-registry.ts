// The takeovers in progress, shared by each task's handoff (which opens and closes them) and the
// takeover routes (which relay input and hand back). In memory: a takeover ends with its task.

import type { HandoffReason } from '../../governance/policy/handoff-schema.js';
import type { JailEndpoint } from '../provider/browser-provider.js';
import type { InputAudit } from './input-audit.js';
import type { JailTakeoverClient } from './jail-takeover-client.js';

/** What a supervisor may choose to save at hand-back (wired to saved sessions by the lead). */
export interface SaveSessionRequest {
  name: string;
  origins: string[];
}

export interface HandBack {
  note: string | null;
  /** `tenant:<t>/<subject>`, `telegram-supervisors`, … */
  by: string;
  saveSession?: SaveSessionRequest | undefined;
}

export interface ActiveTakeover {
  taskId: string;
  tenant: string;
  reason: HandoffReason;
  startedAt: number;
  deadline: number;
  endpoint: JailEndpoint | null;
  client: JailTakeoverClient | null;
  /** What the model said (call_user content) or what the detector saw; shown before taking over. */
  summary?: string | null | undefined;
  /** The task's screen now, as a JPEG (the link's landing page shows it); null when unavailable. */
  screenshot?: (() => Promise<Buffer | null>) | undefined;
  /** The page's origin when the takeover began (prefills "save this login"), if known. */
  origin?: string | null | undefined;
  inputs: InputAudit;
  /** Resolves the task's wait; later calls are ignored. */
  handBack(handBack: HandBack): void;
}

export class TakeoverRegistry {
  readonly #active = new Map<string, ActiveTakeover>();

  open(takeover: ActiveTakeover): void {
    this.#active.set(takeover.taskId, takeover);
  }

  get(taskId: string): ActiveTakeover | undefined {
    return this.#active.get(taskId);
  }

  close(taskId: string): void {
    this.#active.delete(taskId);
  }
}
