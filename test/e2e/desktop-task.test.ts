// A whole-desktop task end to end: a fresh Xvfb, the real xedit (Debian x11-apps), a real
// jail-service serving that display at /desktop (it runs xwd/xdotool, this process runs none), the
// agent loop with the computer action space and a scripted UI-TARS model whose coordinates come
// from the window geometry xdotool reports. The task types a line and saves it with Ctrl-X Ctrl-S.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ExecFileRunner } from '@clawdie/kit/runner';
import sharp from 'sharp';
import { modelDivisors } from '../../controlplane/src/agent/uitars/index.js';
import { childEnvironment } from '../../controlplane/src/platform/runner/child-environment.js';
import { requires } from '../support/capabilities.js';
import { startDesktopJail } from '../support/desktop-jail.js';
import { createPerTaskScriptModel } from '../support/per-task-script-model.js';
import { runTestTask } from '../support/submit-task.js';
import { testLauncher } from '../support/test-launcher.js';
import { createTestTaskDeps } from '../support/test-task-deps.js';

const WIDTH = 1024;
const HEIGHT = 768;

interface Geometry {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Polls `xdotool search --name` until the window is mapped, then reads its geometry. */
async function windowGeometry(display: string, name: string) {
  const runner = new ExecFileRunner();
  const env = { PATH: '/usr/local/bin:/usr/bin:/bin', DISPLAY: display };
  for (let attempt = 0; attempt < 100; attempt++) {
    const argv = [
      'xdotool',
      'search',
      '--onlyvisible',
      '--name',
      name,
      'getwindowgeometry',
      '--shell',
    ] as const;
    const result = await runner.run(argv, { timeoutMs: 5000, env });
    const text = result.stdout;
    const value = (key: string) => Number(new RegExp(`^${key}=(\\d+)`, 'm').exec(text)?.[1]);
    if (result.exitCode === 0 && value('WIDTH') > 0) {
      return { x: value('X'), y: value('Y'), width: value('WIDTH'), height: value('HEIGHT') };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`window ${name} did not appear on ${display}`);
}

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Mean absolute difference of two JPEGs' greyscale pixels inside `box`. */
async function regionDifference(a: Buffer, b: Buffer, box: Geometry): Promise<number> {
  const grey = (jpeg: Buffer) =>
    sharp(jpeg)
      .extract({ left: box.x, top: box.y, width: box.width, height: box.height })
      .greyscale()
      .raw()
      .toBuffer();
  const [left, right] = await Promise.all([grey(a), grey(b)]);
  let sum = 0;
  for (let i = 0; i < left.length; i++) sum += Math.abs((left[i] ?? 0) - (right[i] ?? 0));
  return sum / left.length;
}

describe(
  'desktop task: xedit on a fresh Xvfb through a task run',
  requires('chromium', 'x11'),
  () => {
    const cleanups: Array<() => Promise<void>> = [];
    after(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    it('types a line into xedit, saves it, and leaves no process behind', async () => {
      const jail = await startDesktopJail({ width: WIDTH, height: HEIGHT });
      cleanups.push(jail.close);
      const { xvfb, operator } = jail;
      const directory = mkdtempSync(join(tmpdir(), 'clawdie-desktop-'));
      const file = join(directory, 'note.txt');
      writeFileSync(file, 'first line\n');
      const xedit = await testLauncher.launch({
        argv: ['xedit', file],
        env: childEnvironment({ PATH: '/usr/bin:/bin', DISPLAY: xvfb.display, HOME: directory }),
      });
      cleanups.push(() => xedit.stop(2000));
      const window = await windowGeometry(xvfb.display, '^xedit$');

      // xedit's text pane is the lower three quarters of its window: click well inside it.
      const target = {
        x: window.x + window.width / 2,
        y: window.y + Math.round(window.height * 0.75),
      };
      const divisors = modelDivisors('1.5', { width: WIDTH, height: HEIGHT });
      const model = (value: number, size: number, divisor: number) =>
        Math.round((value / size) * divisor);
      const point = `(${model(target.x, WIDTH, divisors.width)},${model(target.y, HEIGHT, divisors.height)})`;
      const script = [
        `Thought: Put the cursor into the text.\nAction: click(start_box='<|box_start|>${point}<|box_end|>')`,
        // ctrl+End: the end of the buffer, so the line is appended after "first line".
        "Thought: Go to the end.\nAction: hotkey(key='ctrl end')",
        "Thought: Type the line.\nAction: type(content='hello from clawdie')",
        "Thought: Save: first Ctrl-X.\nAction: hotkey(key='ctrl x')",
        "Thought: Then Ctrl-S.\nAction: hotkey(key='ctrl s')",
        "Thought: Saved.\nAction: finished(content='saved')",
      ];
      const before = await operator.screenshot();
      const task = createTestTaskDeps({
        model: createPerTaskScriptModel(script),
        operator,
        loop: { actionSpace: 'computer', maxSteps: 10, guard: false },
      });
      cleanups.push(async () => task.close());

      const result = await runTestTask(
        { instruction: 'Append "hello from clawdie" to the note and save it' },
        task.deps,
      );

      assert.equal(result.status, 'finished', JSON.stringify(result));
      assert.equal(result.summary, 'saved');
      assert.equal(result.step_count, 6);
      const saved = readFileSync(file, 'utf8');
      assert.match(
        saved,
        /^first line\n.*hello from clawdie/s,
        `saved file: ${JSON.stringify(saved)}`,
      );
      const afterShot = await operator.screenshot();
      const difference = await regionDifference(before.jpeg, afterShot.jpeg, window);
      assert.ok(
        difference > 0.2,
        `the xedit window should look different (mean diff ${difference})`,
      );
      assert.equal((await operator.state()).url, `x11://${xvfb.display}`);

      await xedit.stop(2000);
      await jail.close();
      await xvfb.stop(); // idempotent
      assert.equal(alive(xedit.pid), false, 'xedit is gone');
      assert.equal(alive(xvfb.pid), false, 'Xvfb is gone');
      assert.equal(existsSync(`/tmp/.X11-unix/X${xvfb.display.slice(1)}`), false, 'socket removed');
    });
  },
);
