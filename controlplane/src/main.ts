#!/usr/bin/env node
// Composition root for `npm start`.
import { printLine } from './ingress/cli/cli-output.js';
import { DataDirInUseError } from './platform/ownership/data-dir-owner.js';
import { serve } from './server.js';

serve().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    printLine(`clawdie: could not start: ${(error as Error).message}`);
    // 2 = refused (another server holds the data directory), as the CLI does.
    process.exitCode = error instanceof DataDirInUseError ? 2 : 1;
  },
);
