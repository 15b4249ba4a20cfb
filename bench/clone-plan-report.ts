// `npm run bench:clone -- --driver=freebsd-fake [--cycles=100 --linux-cycles=3]`: per-clone command
// counts and step budgets of a FreeBSD clone (the real driver over the in-memory FreeBSD host),
// printed as Markdown tables beside Linux's counts (real clones, when this host can make them).
import { cpus, loadavg } from 'node:os';
import {
  type FreeBsdFigures,
  type OpKind,
  runFreeBsdFake,
  type StepFigures,
} from './freebsd-fake-clone.js';
import { PHASES, type Phase, PLAN_STEPS, seconds, stepKey } from './freebsd-plan-steps.js';
import { type LinuxFigures, measureLinux } from './linux-clone-commands.js';

const mean = (list: number[]) => list.reduce((a, b) => a + b, 0) / Math.max(1, list.length);
const range = (list: number[]) => {
  const [low, high] = [Math.min(...list), Math.max(...list)];
  return low === high ? `${low}` : `${low}–${high}`;
};
const ms = (value: number) => `${value.toFixed(2)} ms`;
const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
const OTHER: Record<Exclude<OpKind, 'command'>, string> = { file: 'file op', http: 'HTTP probe' };

function others(counts: StepFigures['counts']): string {
  const parts = (['file', 'http'] as const)
    .filter((kind) => Math.max(...counts[kind]) > 0)
    .map(
      (kind) => `${range(counts[kind])} ${OTHER[kind]}${Math.max(...counts[kind]) > 1 ? 's' : ''}`,
    );
  return parts.join(', ') || '—';
}

function stepTable(figures: FreeBsdFigures): string[] {
  const { budget } = figures;
  const lines = [
    row([
      'Phase',
      'Step',
      'Commands',
      'Other operations',
      'In-process: driver + fake host (mean)',
      'Allowed by the driver (worst case)',
      'Expected on FreeBSD (estimate)',
    ]),
    row(['---', '---', '---:', '---', '---:', '---', '---']),
  ];
  const byKey = new Map(figures.steps.map((step) => [step.key, step]));
  for (const phase of PHASES) {
    const steps = PLAN_STEPS.filter((step) => step.phase === phase);
    let commands = 0;
    let time = 0;
    const waits: string[] = [];
    for (const step of steps) {
      const measured = byKey.get(stepKey(step));
      if (!measured) continue;
      const count = Math.max(...measured.counts.command);
      commands += count;
      time += mean(measured.ms);
      const wait = step.waits?.(budget);
      if (wait) waits.push(wait);
      const allowed = [
        count > 0 ? `${count} × ${seconds(budget.commandTimeoutMs)}` : '',
        wait ?? '',
      ]
        .filter(Boolean)
        .join('; ');
      const cells = [phase, step.name, range(measured.counts.command), others(measured.counts)];
      lines.push(
        row([
          ...cells,
          ms(mean(measured.ms)),
          allowed || 'in-process',
          step.expected ?? '— (no figure)',
        ]),
      );
    }
    const allowed = [`${commands} × ${seconds(budget.commandTimeoutMs)}`, ...waits].join(' + ');
    const estimated = steps.filter((step) => step.expected !== null).map((step) => step.name);
    const expected =
      estimated.length > 0 ? `only ${estimated.join(', ')} estimated` : '— (no figure)';
    lines.push(
      row([
        `**${phase}**`,
        '**total**',
        `**${commands}**`,
        '',
        `**${ms(time)}**`,
        allowed,
        expected,
      ]),
    );
  }
  return lines;
}

function commandsOfSteps(figures: FreeBsdFigures): string[] {
  const lines: string[] = [];
  for (const step of figures.steps) {
    lines.push(`${step.key}:`);
    for (const { line } of step.lines) lines.push(`  ${line}`);
  }
  return lines;
}

function comparison(
  freebsd: FreeBsdFigures,
  linux: { figures: LinuxFigures } | { missing: string },
): string[] {
  const perPhase = (phase: Phase) =>
    freebsd.steps
      .filter((step) => step.key.startsWith(`${phase}: `))
      .reduce((sum, step) => sum + Math.max(...step.counts.command), 0);
  const probes = (phase: Phase) =>
    freebsd.steps
      .filter((step) => step.key.startsWith(`${phase}: `))
      .reduce((sum, step) => sum + Math.max(...step.counts.http), 0);
  const lines = [
    row([
      'Phase',
      'FreeBSD commands (fake host)',
      'Linux commands (real clones)',
      'FreeBSD ÷ Linux',
      'Linux wall time (median)',
      'Linux programs',
    ]),
    row(['---', '---:', '---:', '---:', '---:', '---']),
  ];
  const l = 'figures' in linux ? linux.figures : null;
  let [bsdTotal, linuxTotal] = [0, 0];
  for (const phase of PHASES) {
    const bsd = perPhase(phase);
    bsdTotal += bsd;
    const probe = probes(phase) > 0 ? ` + ${probes(phase)} HTTP probe` : '';
    if (!l) {
      lines.push(row([phase, `${bsd}${probe}`, '—', '—', '—', '—']));
      continue;
    }
    const count = l.commands[phase];
    linuxTotal += count;
    const ratio = count > 0 ? `${(bsd / count).toFixed(1)}×` : '—';
    const programs =
      l.programs[phase].join(', ') || '(none: reads /run/netns, /sys, /proc, cgroups)';
    lines.push(
      row([phase, `${bsd}${probe}`, count, ratio, `${l.ms[phase].toFixed(0)} ms`, programs]),
    );
  }
  const ratio = l && linuxTotal > 0 ? `${(bsdTotal / linuxTotal).toFixed(1)}×` : '—';
  lines.push(
    row(['**per clone**', `**${bsdTotal}**`, l ? `**${linuxTotal}**` : '—', ratio, '', '']),
  );
  const orphan = freebsd.orphan;
  const orphanBsd = `${orphan.command}${orphan.http > 0 ? ` + ${orphan.http} HTTP probe` : ''}`;
  const orphanRatio = l && l.orphan > 0 ? `${(orphan.command / l.orphan).toFixed(1)}×` : '—';
  const orphanCells = ['reconcile of one orphaned running clone (hostd restart)', orphanBsd];
  lines.push(row([...orphanCells, l ? l.orphan : '—', orphanRatio, '', '']));
  lines.push('');
  if (l) {
    const load = loadavg()
      .map((value) => value.toFixed(2))
      .join(' ');
    lines.push(
      `Linux: ${l.cycles} real clones (no display; ${cpus().length} CPUs, load average ${load}), commands = runner commands + launched processes;`,
    );
    lines.push(
      `plus ${l.probe} command once per driver (host probe). The rest of Linux's work is in-process file system calls.`,
    );
  } else if ('missing' in linux) {
    lines.push(`Linux: ${linux.missing}.`);
  }
  return lines;
}

export async function runFreeBsdFakeBench(options: {
  cycles: number;
  linuxCycles: number;
  /** Every FreeBSD clone with a display (its jail.conf starts Xvfb before the service). */
  display?: boolean;
}): Promise<void> {
  const cycles = Math.max(1, options.cycles);
  const display = options.display ?? false;
  const freebsd = await runFreeBsdFake(cycles, display);
  const { budget } = freebsd;
  console.log(
    `FreeBSD clone plan: the real FreeBsdDriver over the in-memory FreeBSD host, ${cycles} create → start → destroy → reconcile cycles${display ? ' of desktop clones (Xvfb and the jail-service start inside the jail from its exec.start, run by jail -c: no extra hostd command)' : ''}, every argv checked against the real tools' grammar; hostd defaults (${seconds(budget.commandTimeoutMs)} per command, health deadline ${seconds(budget.healthTimeoutMs)}). In-process times are the driver's and the fake's own overhead, not FreeBSD's; the expected figures are estimates from freebsd-jails.md §2.13/§3.3 (no FreeBSD host has run this yet).`,
  );
  console.log('');
  for (const line of stepTable(freebsd)) console.log(line);
  console.log('');
  console.log('Commands of each step (first cycle):');
  for (const line of commandsOfSteps(freebsd)) console.log(line);
  console.log('');
  console.log('Per clone, FreeBSD beside Linux:');
  console.log('');
  for (const line of comparison(freebsd, await measureLinux(options.linuxCycles)))
    console.log(line);
}
