#!/usr/bin/env node
// The `clawdie` command's entry as compiled files (or from source): cli-run.ts. The bundle
// (bundle-entry.ts) starts the same function.
import { runCli } from './cli-run.js';

void runCli(process.argv.slice(2));
