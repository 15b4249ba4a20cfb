import { spawn } from 'node:child_process';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/**
 * Runs `clawdie <args>` (controlplane/src/cli.ts under tsx) as its own process; `stdin` is its
 * input; `imports` are more `--import` modules, loaded before tsx.
 */
export function runClawdie(
  args: string[],
  env: Record<string, string>,
  stdin = '',
  imports: readonly string[] = [],
): Promise<CliRun> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--conditions=source',
        ...imports.flatMap((module) => ['--import', module]),
        '--import',
        'tsx',
        'controlplane/src/cli.ts',
        ...args,
      ],
      { env: { ...process.env, CLAWDIE_LOG_LEVEL: 'silent', ...env }, stdio: 'pipe' },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr, ms: performance.now() - started }));
    child.stdin.end(stdin);
  });
}
