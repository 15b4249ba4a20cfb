#!/usr/bin/env node
// Composition root for `npm start` as compiled files (or from source): server-main.ts. The bundle
// (bundle-entry.ts) starts the same function.
import { runServer } from './server-main.js';

void runServer();
