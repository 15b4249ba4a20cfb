// `npm start`'s server, started by main.ts (compiled or from source) or by the bundle
// (bundle-entry.ts).
import { ConfigError } from './errors.js';
import { PolicyFileError } from './governance/policy/load-policies.js';
import { printLine } from './ingress/cli/cli-output.js';
import { DataDirInUseError } from './platform/ownership/data-dir-owner.js';
import { PortInUseError, serve } from './server.js';

/** Refused before anything started (exit 2, as the CLI): configuration, policy, data dir, port. */
const refusals = [ConfigError, PolicyFileError, DataDirInUseError, PortInUseError];

/** Serves until stopped; the exit code goes to process.exitCode. */
export async function runServer(): Promise<void> {
  try {
    process.exitCode = await serve();
  } catch (error) {
    printLine(`clawdie: could not start: ${(error as Error).message}`);
    // 2 = refused before starting, as the CLI does; 1 = failed while starting or running.
    process.exitCode = refusals.some((kind) => error instanceof kind) ? 2 : 1;
  }
}
