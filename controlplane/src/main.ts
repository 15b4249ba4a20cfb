#!/usr/bin/env node
// Composition root for `npm start`.
import { printLine } from './cli/cli-output.js';
import { serve } from './server.js';

serve().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    printLine(`clawdie: could not start: ${(error as Error).message}`);
    process.exitCode = 1;
  },
);
