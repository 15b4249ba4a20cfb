// The desktop surface with a recording CommandRunner: the jail-service's own batch loop, action
// steps and key table turned into xdotool argv, through the real routes (`app.request`).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createJsCodec } from '@clawdie/kit/images';
import { type Action, actionsResponseSchema } from '@clawdie/kit/jail-api';
import {
  type RunResult as CommandResult,
  type CommandRunner,
  CommandTimeoutError,
} from '@clawdie/kit/runner';
import { createDesktopSurface } from '../../../jail-service/src/desktop/desktop-surface.js';
import { domKeyToKeysym } from '../../../jail-service/src/desktop/x11-keysyms.js';
import { NAMED_KEYS, normalizeKey, PRINTABLE_KEYS } from '../../../jail-service/src/keys.js';
import { silentLogger } from '../../support/silent-logger.js';

const TOKEN = 'surface-token';
type Reply = Partial<CommandResult> | Error;

/** Records every argv; answers geometry and window-name queries, `replies` for the rest in order. */
function recordingRunner(replies: Reply[] = []) {
  const calls: string[][] = [];
  const runner: CommandRunner = {
    async run(argv, options) {
      calls.push([...argv]);
      assert.equal(options.env?.DISPLAY, ':7');
      assert.deepEqual(Object.keys(options.env ?? {}).sort(), ['DISPLAY', 'PATH']);
      const ok = (stdout: string): CommandResult => ({
        exitCode: 0,
        stdout,
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
    calls.filter((argv) => argv[1] !== 'getdisplaygeometry' && argv.at(-1) !== 'getwindowname');
  return { runner, actions };
}

async function surface(replies: Reply[] = []) {
  const recorded = recordingRunner(replies);
  const app = await createDesktopSurface({
    display: ':7',
    token: TOKEN,
    actionTimeoutMs: 5000,
    navigationTimeoutMs: 5000,
    screenshotQuality: 80,
    logger: silentLogger,
    codec: createJsCodec(),
    runner: recorded.runner,
  });
  const post = async (actions: Action[]) => {
    const response = await app.request('/actions', {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ actions }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  return { ...recorded, app, post };
}

describe('jail-service desktop surface (recorded xdotool argv)', () => {
  it('runs each action through the shared action steps as chained xdotool invocations', async () => {
    const { post, actions } = await surface();
    const reply = await post([
      { type: 'click', x: 10.4, y: 20.6 },
      { type: 'left_double', x: 1, y: 2 },
      { type: 'right_single', x: 3, y: 4 },
      { type: 'drag', from: { x: 0, y: 0 }, to: { x: 80, y: 40 } },
      { type: 'hotkey', keys: ['ctrl', 'shift', 'pagedown'] },
      { type: 'press', key: 'enter' },
      { type: 'keydown', key: 'esc' },
      { type: 'keyup', key: 'esc' },
      { type: 'type', text: 'hi there\n' },
      { type: 'scroll', x: 5, y: 6, direction: 'down', amount: 300 },
      { type: 'scroll', x: 5, y: 6, direction: 'left' },
    ]);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const body = actionsResponseSchema.parse(reply.body);
    assert.ok(body.results.every((result) => result.status === 'ok'));
    const drag = [0, 10, 20, 30, 40, 50, 60, 70, 80].flatMap((x) => [
      'mousemove',
      `${x}`,
      `${x / 2}`,
    ]);
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
      ['xdotool', ...drag.slice(0, 3), 'mousedown', '1', ...drag.slice(3), 'mouseup', '1'],
      [
        'xdotool',
        'keydown',
        'Control_L',
        'keydown',
        'Shift_L',
        'keydown',
        'Next',
        'keyup',
        'Next',
        'keyup',
        'Shift_L',
        'keyup',
        'Control_L',
      ],
      ['xdotool', 'keydown', 'Return', 'keyup', 'Return'],
      ['xdotool', 'keydown', 'Escape'],
      ['xdotool', 'keyup', 'Escape'],
      ['xdotool', 'type', '--delay', '4', '--', 'hi there'],
      ['xdotool', 'keydown', 'Return', 'keyup', 'Return'],
      ['xdotool', 'mousemove', '5', '6', 'click', '--repeat', '3', '--delay', '10', '5'],
      ['xdotool', 'mousemove', '5', '6', 'click', '--repeat', '5', '--delay', '10', '6'],
    ]);
    assert.deepEqual(body.state, { url: 'x11://:7', title: 'Editor', loading: false });
  });

  it('rejects an off-screen point or an unknown key with 400 before running anything', async () => {
    const { post, actions } = await surface();
    const offScreen = await post([
      { type: 'hover', x: 1, y: 1 },
      { type: 'click', x: 800, y: 1 },
    ]);
    assert.equal(offScreen.status, 400);
    assert.match(JSON.stringify(offScreen.body), /OUT_OF_RANGE/);
    const unknown = await post([
      { type: 'hover', x: 1, y: 1 },
      { type: 'hotkey', keys: ['ctrl', 'nosuchkey'] },
    ]);
    assert.equal(unknown.status, 400);
    assert.match(JSON.stringify(unknown.body), /UNKNOWN_KEY/);
    assert.deepEqual(actions(), []);
  });

  it('reports navigation as UNSUPPORTED_ON_DESKTOP and skips the rest of the batch', async () => {
    const { post, actions } = await surface();
    const body = actionsResponseSchema.parse(
      (
        await post([
          { type: 'open_url', url: 'https://example.org' },
          { type: 'click', x: 1, y: 1 },
        ])
      ).body,
    );
    assert.deepEqual(
      body.results.map((result) => result.status),
      ['error', 'skipped'],
    );
    assert.match(body.results[0]?.error?.message ?? '', /^UNSUPPORTED_ON_DESKTOP/);
    assert.deepEqual(actions(), []);
  });

  it('turns a failing or timed-out xdotool into an ACTION_FAILED result', async () => {
    const { post } = await surface([
      { exitCode: 1, stderr: 'boom' },
      new CommandTimeoutError(['xdotool'], 10),
    ]);
    const first = actionsResponseSchema.parse((await post([{ type: 'click', x: 1, y: 1 }])).body);
    assert.equal(first.results[0]?.error?.code, 'ACTION_FAILED');
    assert.match(first.results[0]?.error?.message ?? '', /boom/);
    const second = actionsResponseSchema.parse((await post([{ type: 'press', key: 'a' }])).body);
    assert.equal(second.results[0]?.error?.code, 'ACTION_FAILED');
  });

  it('answers 503 BROWSER_UNAVAILABLE when the display is gone', async () => {
    const { app } = await surface([{ exitCode: 1, stderr: "Error: Can't open display: :7" }]);
    const response = await app.request('/screenshot', {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    assert.equal(response.status, 503);
    assert.match(await response.text(), /BROWSER_UNAVAILABLE/);
  });

  it('requires the bearer token like the browser surface', async () => {
    const { app } = await surface();
    assert.equal((await app.request('/state')).status, 401);
  });

  it('refuses a display that is not :NN', async () => {
    const { runner } = recordingRunner();
    await assert.rejects(
      createDesktopSurface({
        display: 'host:0; rm -rf /',
        token: TOKEN,
        actionTimeoutMs: 5000,
        navigationTimeoutMs: 5000,
        screenshotQuality: 80,
        logger: silentLogger,
        codec: createJsCodec(),
        runner,
      }),
    );
  });
});

describe('X keysyms from the jail-service key table', () => {
  it('has a keysym for every key the table accepts', () => {
    const names = [
      ...NAMED_KEYS,
      ...PRINTABLE_KEYS,
      ...'abcdefghijklmnopqrstuvwxyz0123456789',
      ...Array.from({ length: 12 }, (_, i) => `f${i + 1}`),
    ];
    const missing = names.filter((name) => domKeyToKeysym(normalizeKey(name) ?? '') === undefined);
    assert.deepEqual(missing, []);
  });

  it('maps DOM key names onto X keysyms', () => {
    const pairs = ['KeyA', 'Digit7', 'F11', 'Control', 'Meta', 'PageUp', 'ArrowLeft', 'Enter', '~'];
    assert.deepEqual(pairs.map(domKeyToKeysym), [
      'a',
      '7',
      'F11',
      'Control_L',
      'Super_L',
      'Prior',
      'Left',
      'Return',
      'asciitilde',
    ]);
  });
});
