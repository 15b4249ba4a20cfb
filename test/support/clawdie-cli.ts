import { type ChildProcess, spawn } from 'node:child_process';
import { CLAWDIE_ARGV } from './current-build.js';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Collects a child's stdout and stderr until it exits; rejects only if it cannot start. */
export function collectRun(child: ChildProcess): Promise<CliRun> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr?.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr, ms: performance.now() - started }));
  });
}

/** Runs `node <argv>` with the test's environment plus `env` (logs silent); `stdin` is its input. */
export function runNode(argv: string[], env: Record<string, string>, stdin = ''): Promise<CliRun> {
  const child = spawn(process.execPath, argv, {
    env: { ...process.env, CLAWDIE_LOG_LEVEL: 'silent', ...env },
    stdio: 'pipe',
  });
  const run = collectRun(child);
  child.stdin.end(stdin);
  return run;
}

/**
 * Runs `clawdie <args>` as its own process (its bundle when current: current-build.ts); `stdin`
 * is its input; `imports`, more `--import` modules, run controlplane/src/cli.ts under tsx after them.
 */
export function runClawdie(
  args: string[],
  env: Record<string, string>,
  stdin = '',
  imports: readonly string[] = [],
): Promise<CliRun> {
  if (imports.length === 0) return runNode([...CLAWDIE_ARGV, ...args], env, stdin);
  const argv = [
    '--conditions=source',
    ...imports.flatMap((module) => ['--import', module]),
    '--import',
    'tsx',
    'controlplane/src/cli.ts',
    ...args,
  ];
  return runNode(argv, env, stdin);
}
