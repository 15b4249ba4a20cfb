// The BrowserOperator port over an X11 display: screenshots by `xwd -root` (decoded here, encoded
// by sharp), input by one chained xdotool invocation per action. Device pixel ratio is 1, so the
// viewport is the screen and model coordinates map straight to X pixels.
import type { Action, ActionResult, ActionsResponse, PageState } from '@clawdie/jail-service/api';
import sharp from 'sharp';
import { isAbortError, OperatorError } from '../errors.js';
import type { BrowserOperator, Screenshot } from '../operator/browser-operator.js';
import { type CommandResult, type CommandRunner, CommandTimeoutError } from './command-runner.js';
import { createExecFileRunner } from './runner/exec-file-runner.js';
import { batchIssue, planDesktopStep, type ScreenSize } from './xdotool-plan.js';
import { decodeXwd } from './xwd-image.js';

export interface DesktopOperatorOptions {
  /** The X display, `:NN`. */
  display: string;
  runner?: CommandRunner;
  jpegQuality?: number;
  /** Bound on one xdotool/xwd run (typing gets more per character); default 10 s. */
  actionTimeoutMs?: number;
}

export function createDesktopOperator(options: DesktopOperatorOptions): BrowserOperator {
  if (!/^:\d+(\.\d+)?$/.test(options.display)) {
    throw new Error(`createDesktopOperator: display must look like :NN, got ${options.display}`);
  }
  const runner = options.runner ?? createExecFileRunner();
  const env = { DISPLAY: options.display };
  const timeoutMs = options.actionTimeoutMs ?? 10_000;
  const quality = options.jpegQuality ?? 80;
  const url = `x11://${options.display}`;
  let screen: ScreenSize | null = null;

  async function run(argv: [string, ...string[]], signal?: AbortSignal, ms = timeoutMs) {
    try {
      return await runner.run(argv, { timeoutMs: ms, signal, env });
    } catch (error) {
      if (isAbortError(error) || error instanceof CommandTimeoutError) throw error;
      throw new OperatorError('OPERATOR_UNAVAILABLE', `${argv[0]}: ${(error as Error).message}`);
    }
  }

  function unreachable(result: CommandResult, what: string): OperatorError | null {
    if (!/Can't open display|Failed creating new xdo|unable to open display/i.test(result.stderr)) {
      return null;
    }
    return new OperatorError(
      'OPERATOR_UNAVAILABLE',
      `${what}: X display ${options.display} is gone`,
    );
  }

  async function screenSize(signal?: AbortSignal): Promise<ScreenSize> {
    if (screen) return screen;
    const result = await run(['xdotool', 'getdisplaygeometry'], signal);
    const match = /^(\d+) (\d+)/.exec(result.stdout.toString('utf8'));
    if (result.exitCode !== 0 || !match) {
      throw (
        unreachable(result, 'xdotool getdisplaygeometry') ??
        new OperatorError('OPERATOR_BAD_RESPONSE', `xdotool getdisplaygeometry: ${result.stderr}`)
      );
    }
    screen = { width: Number(match[1]), height: Number(match[2]) };
    return screen;
  }

  /** Cleared once the display shows it has no window manager that reports an active window. */
  let activeWindowKnown = true;

  async function windowTitle(signal?: AbortSignal): Promise<string> {
    if (activeWindowKnown) {
      const result = await run(['xdotool', 'getactivewindow', 'getwindowname'], signal);
      const name = result.stdout.toString('utf8').trim();
      if (result.exitCode === 0) return name;
      const gone = unreachable(result, 'xdotool getactivewindow');
      if (gone) throw gone;
      if (/_NET_ACTIVE_WINDOW/.test(result.stderr)) activeWindowKnown = false;
    }
    // No window manager: the newest visible window with a name stands in for the active one.
    const args = ['search', '--onlyvisible', '--name', '.', 'getwindowname', '%@'];
    const result = await run(['xdotool', ...args], signal);
    const gone = unreachable(result, 'xdotool search');
    if (gone) throw gone;
    return result.stdout.toString('utf8').split('\n').filter(Boolean).at(-1) ?? '';
  }

  async function state(signal?: AbortSignal): Promise<PageState> {
    return { url, title: await windowTitle(signal), loading: false };
  }

  async function runAction(action: Action, signal?: AbortSignal): Promise<ActionResult['error']> {
    const step = planDesktopStep(action, timeoutMs);
    if (step.kind === 'unsupported') return { code: 'ACTION_FAILED', message: step.message };
    if (step.kind === 'wait') {
      await sleep(step.ms, signal);
      return undefined;
    }
    try {
      const result = await run(['xdotool', ...step.args], signal, step.timeoutMs);
      if (result.exitCode === 0) return undefined;
      const gone = unreachable(result, `xdotool ${action.type}`);
      if (gone) throw gone;
      const message = `xdotool exited with ${result.exitCode}: ${result.stderr.trim()}`;
      return { code: 'ACTION_FAILED', message };
    } catch (error) {
      if (!(error instanceof CommandTimeoutError)) throw error;
      return { code: 'TOOL_TIMEOUT', message: error.message };
    }
  }

  return {
    async screenshot(signal): Promise<Screenshot> {
      const result = await run(['xwd', '-root', '-silent', '-display', options.display], signal);
      if (result.exitCode !== 0) {
        throw (
          unreachable(result, 'xwd') ??
          new OperatorError('OPERATOR_UNAVAILABLE', `xwd exited with ${result.exitCode}`)
        );
      }
      let image: ReturnType<typeof decodeXwd>;
      try {
        image = decodeXwd(result.stdout);
      } catch (error) {
        throw new OperatorError('OPERATOR_BAD_RESPONSE', (error as Error).message, error);
      }
      const { width, height } = image;
      screen = { width, height };
      const jpeg = await sharp(image.rgb, { raw: { width, height, channels: 3 } })
        .jpeg({ quality })
        .toBuffer();
      return {
        jpeg,
        meta: {
          viewportWidth: width,
          viewportHeight: height,
          devicePixelRatio: 1,
          imageWidth: width,
          imageHeight: height,
        },
      };
    },
    async execute(actions, signal): Promise<ActionsResponse> {
      const issue = batchIssue(actions, await screenSize(signal));
      if (issue)
        throw new OperatorError('OPERATOR_REJECTED', `desktop ${options.display}: ${issue}`);
      const results: ActionResult[] = [];
      let failed = false;
      for (const [index, action] of actions.entries()) {
        if (failed) {
          results.push({
            index,
            type: action.type,
            status: 'skipped',
            duration_ms: 0,
            navigated: false,
          });
          continue;
        }
        signal?.throwIfAborted();
        const started = performance.now();
        const error = await runAction(action, signal);
        const duration_ms = Math.round(performance.now() - started);
        failed = error !== undefined;
        results.push({
          index,
          type: action.type,
          status: error ? 'error' : 'ok',
          duration_ms,
          navigated: false,
          ...(error ? { error } : {}),
        });
      }
      return { results, state: await state(signal) };
    },
    state,
  };
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  signal?.throwIfAborted();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
