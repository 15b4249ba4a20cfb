#!/usr/bin/env node
// Runs the jail-service (run-service.ts): config → logger → browser + app → listen. The one-file
// bundle starts the same function through its loader (scripts/bundle-loader.mjs).
import { runService } from './run-service.js';

void runService().catch((error: unknown) => {
  process.stderr.write(`jail-service: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
