// `npm run bench:clone -- --driver=freebsd-fake`: the FreeBSD clone plan's figures. The bench runs
// the real driver over the fake host; its per-clone counts must match the golden lifecycle plan,
// and every step of the plan must own at least one operation (else its boundaries are wrong).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { runFreeBsdFake } from '../../../bench/freebsd-fake-clone.js';
import { assignSteps, PLAN_STEPS, stepKey } from '../../../bench/freebsd-plan-steps.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '../../..');
const golden = (name: string) =>
  readFileSync(join(here, 'golden', name), 'utf8')
    .trimEnd()
    .split('\n');

describe('bench:clone --driver=freebsd-fake', () => {
  it('counts exactly the golden lifecycle plan, every step owning operations', async () => {
    const figures = await runFreeBsdFake(2);
    const lifecycle = golden('lifecycle-007-all-commands.txt');
    const programs = lifecycle.filter((line) => !line.startsWith('[http]')).length;
    const sum = (phases: string[], kind: 'command' | 'http') =>
      figures.steps
        .filter((step) => phases.some((phase) => step.key.startsWith(`${phase}: `)))
        .reduce((total, step) => total + Math.max(...step.counts[kind]), 0);
    assert.equal(sum(['create', 'start', 'destroy'], 'command'), programs);
    assert.equal(sum(['start'], 'http'), lifecycle.length - programs);
    // A restart's reconcile of a running orphan: the inventory, its health probe, the teardown.
    assert.equal(figures.orphan.command, sum(['reconcile', 'destroy'], 'command'));
    assert.equal(figures.orphan.http, 1);
    for (const step of figures.steps) {
      assert.ok(step.lines.length > 0, `${step.key} owns no operation`);
      for (const kind of ['command', 'file', 'http'] as const) {
        assert.equal(new Set(step.counts[kind]).size, 1, `${step.key}: ${kind} varies per clone`);
      }
    }
    assert.deepEqual(
      figures.steps.map((step) => step.key),
      PLAN_STEPS.map(stepKey),
    );
  });

  it('does not let the teardown jls checks start the verification step', () => {
    // The golden's destroy commands (its file operations are not commands: that step is skipped).
    const lifecycle = golden('lifecycle-007-all-commands.txt');
    const destroy = lifecycle.slice(
      lifecycle.findIndex((line) => / -r browsertask007$/.test(line)),
    );
    const keys = assignSteps('destroy', destroy);
    assert.equal(keys[1], 'destroy: jail -r + wait gone + unmount'); // jls -d right after jail -r
    assert.equal(keys[3], 'destroy: PF flush rules + tables'); // only once the jail is gone
    assert.equal(keys.at(-8), 'destroy: verify absent (§2.11)');
    assert.equal(keys.at(-9), 'destroy: zfs destroy');
  });

  it('prints the step table and the Linux comparison', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        ...['--conditions=source', '--import', 'tsx', 'bench/clone-ready.ts'],
        ...['--driver=freebsd-fake', '--cycles=2', '--linux-cycles=0'],
      ],
      { cwd: root, timeout: 60_000 },
    );
    assert.match(stdout, /\| Phase \| Step \| Commands \|/);
    assert.match(stdout, /\| \*\*create\*\* \| \*\*total\*\* \| \*\*\d+\*\* \|/);
    assert.match(stdout, /\| start \| health \(jail-service \+ Chromium\) \| 0 \| 1 HTTP probe \|/);
    assert.match(stdout, /\| \*\*per clone\*\* \| \*\*\d+\*\* \|/);
    assert.match(
      stdout,
      /\| reconcile of one orphaned running clone \(hostd restart\) \| \d+ \+ 1 HTTP probe \|/,
    );
    assert.match(stdout, /Linux: not measured \(--linux-cycles=0\)\./);
  });
});
