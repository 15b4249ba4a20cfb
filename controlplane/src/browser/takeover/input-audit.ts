// Audits a supervisor's input as bursts: counts per event kind and the element kinds the keys went
// to, one row per burst (a pause of `quietMs` ends one). Never keys, text or coordinates.
import type { InputReport, SupervisorInput } from '@clawdie/kit/jail-api';

export interface InputBurst {
  events: Record<SupervisorInput['type'], number>;
  targets: InputReport['targets'];
}

export interface InputAudit {
  record(events: readonly SupervisorInput[], report: InputReport): void;
  /** Writes the pending burst now (hand-back, timeout). */
  flush(): void;
}

export function createInputAudit(write: (burst: InputBurst) => void, quietMs = 1000): InputAudit {
  let burst: InputBurst | null = null;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    clearTimeout(timer);
    if (burst) write(burst);
    burst = null;
  };
  return {
    record(events, report) {
      burst ??= {
        events: { mouse: 0, wheel: 0, key: 0, text: 0 },
        targets: { password: 0, text: 0, other: 0 },
      };
      for (const event of events) burst.events[event.type] += 1;
      for (const kind of ['password', 'text', 'other'] as const)
        burst.targets[kind] += report.targets[kind];
      clearTimeout(timer);
      timer = setTimeout(flush, quietMs);
      timer.unref();
    },
    flush,
  };
}
