// The steps of a FreeBSD clone's lifecycle, in the driver's order (freebsd-jails.md §2.9–§2.12),
// and each step's time budget from the plan: what the driver allows (its timeouts and waits) and,
// where the notes name one, the expected cost on a real FreeBSD host — an estimate, since no
// FreeBSD host has run it yet. A command belongs to the latest step whose start pattern it matched.

export type Phase = 'create' | 'start' | 'destroy' | 'reconcile';

export interface PlanStep {
  phase: Phase;
  name: string;
  /** The first operation of the step (matched against the plan line). */
  starts: RegExp;
  /** Fixed waits the driver allows in this step beyond its per-command timeout, as text. */
  waits?: (budget: Budget) => string;
  /** Expected cost on a real host from freebsd-jails.md, or null when the notes name none. */
  expected: string | null;
}

export interface Budget {
  commandTimeoutMs: number;
  healthTimeoutMs: number;
}

const INVENTORY = /^\/usr\/sbin\/jls -d -v /;

export const PLAN_STEPS: readonly PlanStep[] = [
  { phase: 'create', name: 'inventory (leftover check)', starts: INVENTORY, expected: null },
  {
    phase: 'create',
    name: 'zfs clone + verify',
    starts: /^\/sbin\/zfs clone /,
    expected: '≈ 40 ms (§2.13, prior art)',
  },
  { phase: 'create', name: 'token + PF files', starts: /^\[write/, expected: null },
  { phase: 'create', name: 'epair create/rename/address', starts: / create$/, expected: null },
  {
    phase: 'create',
    name: 'PF anchor load + verify',
    starts: /^\/sbin\/pfctl -a \S+ -f /,
    expected: null,
  },
  { phase: 'create', name: 'rctl rules + verify', starts: /^\/usr\/bin\/rctl -a /, expected: null },
  { phase: 'create', name: 'inspect (result)', starts: INVENTORY, expected: null },
  {
    phase: 'start',
    name: 'dataset + jls (current state)',
    starts: /^\/sbin\/zfs list -H -p -o \S+ \S+$/,
    expected: null,
  },
  { phase: 'start', name: 'jail.conf', starts: /^\[write/, expected: null },
  {
    phase: 'start',
    name: 'jail -c + jls',
    starts: /^\/usr\/sbin\/jail -f \S+ -c /,
    waits: () => 'exec.timeout 30 s',
    expected: '≈ 0.1–0.3 s (§2.13, inferred; ≈ 1 s with rc)',
  },
  {
    phase: 'start',
    name: 'health (jail-service + Chromium)',
    starts: /^\[http\] GET /,
    waits: (b) => `deadline ${seconds(b.healthTimeoutMs)}, back-off 0.1→1 s, 2 s per probe`,
    expected: '≈ 1 s (Chromium start; Linux measured ≈ 1.1 s, §3.3)',
  },
  { phase: 'start', name: 'inspect (result)', starts: INVENTORY, expected: null },
  {
    phase: 'destroy',
    name: 'jail -r + wait gone + unmount',
    starts: /^\/usr\/sbin\/jail (-f \S+ -r|-R) /,
    waits: () => 'stop.timeout 5 s; jls -d polls ≤ 50 × 100 ms',
    expected: null,
  },
  // Only once the jail is gone: its anchor stays loaded for as long as it may still run.
  { phase: 'destroy', name: 'PF flush rules + tables', starts: /-F rules$/, expected: null },
  { phase: 'destroy', name: 'PF kill states', starts: /^\/sbin\/pfctl -k /, expected: null },
  { phase: 'destroy', name: 'rctl remove', starts: /^\/usr\/bin\/rctl -r /, expected: null },
  { phase: 'destroy', name: 'epair destroy', starts: /^\/sbin\/ifconfig -l$/, expected: null },
  {
    phase: 'destroy',
    name: 'zfs destroy',
    starts: /^\/sbin\/zfs destroy /,
    waits: () => '≤ 3 tries, 2 × 1 s apart',
    expected: null,
  },
  { phase: 'destroy', name: 'remove files, archive log', starts: /^\[(rm|mv)\]/, expected: null },
  {
    phase: 'destroy',
    name: 'verify absent (§2.11)',
    starts: /^\/usr\/sbin\/jls -d -j /,
    expected: null,
  },
  { phase: 'reconcile', name: 'inventory (empty host)', starts: INVENTORY, expected: null },
];

export const PHASES: readonly Phase[] = ['create', 'start', 'destroy', 'reconcile'];

/**
 * Step keys (`phase: name`) of each operation of one phase, in order. A step may be skipped (e.g.
 * no file to remove) but only one at a time: the teardown's and the verification's read-only
 * checks look alike, so a step starts only right after the one before it (or the one before that).
 */
export function assignSteps(phase: Phase, lines: readonly string[]): string[] {
  const steps = PLAN_STEPS.filter((step) => step.phase === phase);
  let current = -1;
  return lines.map((line) => {
    const within = (i: number) => i > current && i <= current + 2;
    const next = steps.findIndex((step, i) => within(i) && step.starts.test(line));
    if (next !== -1) current = next;
    const step = steps[Math.max(current, 0)];
    if (current === -1 || step === undefined) throw new Error(`${phase}: no step for ${line}`);
    return stepKey(step);
  });
}

export const stepKey = (step: PlanStep) => `${step.phase}: ${step.name}`;

export function seconds(ms: number): string {
  return ms >= 1000 ? `${+(ms / 1000).toFixed(1)} s` : `${ms} ms`;
}
