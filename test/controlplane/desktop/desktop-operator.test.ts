import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Action } from '@clawdie/jail-service/api';
import {
  type CommandResult,
  type CommandRunner,
  CommandTimeoutError,
} from '../../../controlplane/src/desktop/command-runner.js';
import { createDesktopOperator } from '../../../controlplane/src/desktop/desktop-operator.js';
import { OperatorError } from '../../../controlplane/src/errors.js';

type Reply = Partial<CommandResult> | Error;

/** Records every argv; answers geometry and window-name queries, `replies` for the rest in order. */
function recordingRunner(replies: Reply[] = []) {
  const calls: string[][] = [];
  const runner: CommandRunner = {
    async run(argv, options) {
      calls.push([...argv]);
      assert.equal(options.env?.DISPLAY, ':7');
      const ok = (stdout: string): CommandResult => ({
        exitCode: 0,
        stdout: Buffer.from(stdout),
        stderr: '',
        durationMs: 1,
      });
      if (argv[1] === 'getdisplaygeometry') return ok('800 600\n');
      if (argv.at(-1) === 'getwindowname') return ok('Editor\n');
      const reply = replies.shift() ?? {};
      if (reply instanceof Error) throw reply;
      return { ...ok(''), ...reply };
    },
  };
  const actions = () =>
    calls
      .filter((argv) => argv[1] !== 'getdisplaygeometry')
      .filter((argv) => argv.at(-1) !== 'getwindowname');
  return { runner, calls, actions };
}

describe('createDesktopOperator (recorded xdotool argv)', () => {
  it('chains each action into one xdotool invocation with X keysyms and wheel buttons', async () => {
    const { runner, actions } = recordingRunner();
    const operator = createDesktopOperator({ display: ':7', runner });
    const response = await operator.execute([
      { type: 'click', x: 10.4, y: 20.6 },
      { type: 'left_double', x: 1, y: 2 },
      { type: 'right_single', x: 3, y: 4 },
      { type: 'drag', from: { x: 0, y: 0 }, to: { x: 100, y: 50 } },
      { type: 'hotkey', keys: ['ctrl', 'shift', 'pagedown'] },
      { type: 'press', key: 'enter' },
      { type: 'keydown', key: 'esc' },
      { type: 'keyup', key: 'esc' },
      { type: 'type', text: 'hi there\n' },
      { type: 'scroll', x: 5, y: 6, direction: 'down', amount: 300 },
      { type: 'scroll', x: 5, y: 6, direction: 'left' },
    ]);
    assert.ok(response.results.every((result) => result.status === 'ok'));
    assert.deepEqual(actions(), [
      ['xdotool', 'mousemove', '10', '21', 'mousedown', '1', 'mouseup', '1'],
      [
        'xdotool',
        'mousemove',
        '1',
        '2',
        'mousedown',
        '1',
        'mouseup',
        '1',
        'mousedown',
        '1',
        'mouseup',
        '1',
      ],
      ['xdotool', 'mousemove', '3', '4', 'mousedown', '3', 'mouseup', '3'],
      [
        'xdotool',
        'mousemove',
        '0',
        '0',
        'mousedown',
        '1',
        'mousemove',
        '50',
        '25',
        'mousemove',
        '100',
        '50',
        'mouseup',
        '1',
      ],
      ['xdotool', 'key', '--clearmodifiers', 'ctrl+shift+Next'],
      ['xdotool', 'key', '--clearmodifiers', 'Return'],
      ['xdotool', 'keydown', 'Escape'],
      ['xdotool', 'keyup', 'Escape'],
      ['xdotool', 'type', '--delay', '4', '--', 'hi there\n'],
      ['xdotool', 'mousemove', '5', '6', 'click', '--repeat', '3', '--delay', '10', '5'],
      ['xdotool', 'mousemove', '5', '6', 'click', '--repeat', '5', '--delay', '10', '6'],
    ]);
    assert.deepEqual(response.state, { url: 'x11://:7', title: 'Editor', loading: false });
  });

  it('rejects an off-screen point or an unknown key as OPERATOR_REJECTED before running anything', async () => {
    const { runner, actions } = recordingRunner();
    const operator = createDesktopOperator({ display: ':7', runner });
    const bad: Action[] = [
      { type: 'click', x: 800, y: 1 },
      { type: 'hotkey', keys: ['ctrl', 'nosuchkey'] },
    ];
    for (const action of bad) {
      await assert.rejects(
        operator.execute([{ type: 'hover', x: 1, y: 1 }, action]),
        (error: unknown) => error instanceof OperatorError && error.code === 'OPERATOR_REJECTED',
      );
    }
    assert.deepEqual(actions(), []);
  });

  it('reports navigation as UNSUPPORTED_ON_DESKTOP and skips the rest of the batch', async () => {
    const { runner, actions } = recordingRunner();
    const operator = createDesktopOperator({ display: ':7', runner });
    const response = await operator.execute([
      { type: 'open_url', url: 'https://example.org' },
      { type: 'click', x: 1, y: 1 },
    ]);
    assert.deepEqual(
      response.results.map((result) => result.status),
      ['error', 'skipped'],
    );
    assert.match(response.results[0]?.error?.message ?? '', /^UNSUPPORTED_ON_DESKTOP/);
    assert.deepEqual(actions(), []);
  });

  it('turns a failing or timed-out xdotool into an error result', async () => {
    const { runner } = recordingRunner([
      { exitCode: 1, stderr: 'boom' },
      new CommandTimeoutError('xdotool', 10),
    ]);
    const operator = createDesktopOperator({ display: ':7', runner });
    const first = await operator.execute([{ type: 'click', x: 1, y: 1 }]);
    assert.equal(first.results[0]?.error?.code, 'ACTION_FAILED');
    const second = await operator.execute([{ type: 'press', key: 'a' }]);
    assert.equal(second.results[0]?.error?.code, 'TOOL_TIMEOUT');
  });

  it('rejects with OPERATOR_UNAVAILABLE when the display is gone', async () => {
    const { runner } = recordingRunner([{ exitCode: 1, stderr: "Error: Can't open display: :7" }]);
    const operator = createDesktopOperator({ display: ':7', runner });
    await assert.rejects(
      operator.screenshot(),
      (error: unknown) => error instanceof OperatorError && error.code === 'OPERATOR_UNAVAILABLE',
    );
  });

  it('refuses a display that is not :NN', () => {
    assert.throws(() => createDesktopOperator({ display: 'host:0; rm -rf /' }));
  });
});
