// A clone's Xvfb (CloneSpec.display): started as the clone's uid inside its sandbox, on the
// display number Xvfb picks and reports on stdout; the number goes to the clone's state files.
import { chmod, mkdir } from 'node:fs/promises';
import type { LaunchedProcess, ProcessLauncher } from '@clawdie/kit/runner';
import type { LinuxCloneNames } from './names.js';
import { type WrapOptions, wrap, xvfbCommand } from './sandbox.js';
import { writeDisplay } from './state-files.js';
import { waitForLine } from './wait.js';

export interface DisplayStart {
  launcher: ProcessLauncher;
  /** The X socket directory's parent (`/tmp` unless a test moves it). */
  xDir: string;
  names: LinuxCloneNames;
  wrapOptions: WrapOptions;
  /** Xvfb's stderr lines, for the clone's log tail. */
  onStderrLine(text: string): void;
  /** Keeps the child with the clone's others (the driver stops them together). */
  remember(child: LaunchedProcess): void;
}

export async function startDisplay(options: DisplayStart): Promise<void> {
  const { names, xDir } = options;
  // Xvfb runs as the clone uid: the socket directory must be world-writable and sticky.
  await mkdir(`${xDir}/.X11-unix`, { recursive: true });
  await chmod(`${xDir}/.X11-unix`, 0o1777);
  let answer: (line: string) => void = () => {};
  const line = new Promise<string>((resolve) => {
    answer = resolve;
  });
  const child = await options.launcher.launch({
    argv: wrap(options.wrapOptions, xvfbCommand(names.display)),
    env: { PATH: '/usr/bin:/bin' },
    processGroup: true,
    onStdoutLine: (text) => answer(text),
    onStderrLine: options.onStderrLine,
  });
  options.remember(child);
  const display = Number(await waitForLine(line, child, 10_000));
  if (!Number.isInteger(display)) throw new Error(`Xvfb reported no display: ${display}`);
  await writeDisplay(names.stateDir, display);
}
